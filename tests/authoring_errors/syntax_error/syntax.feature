# One error: a line that is no Gherkin at all, among the steps.
Feature: Moving cards

  @id:MOVE-904
  Scenario: a card moves onto the next higher card of its suit
    Given the table
      | 1  | 2  |
      | 7♥ | 8♥ |
    When the player moves 7♥ to column 2
  the seven lands on the eight
    Then column 2 reads 8♥ 7♥
