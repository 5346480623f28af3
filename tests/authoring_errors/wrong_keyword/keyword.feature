# One error: an action written as a Then step.
Feature: Moving cards

  @id:MOVE-914
  Scenario: a card moves onto the next higher card of its suit
    Given the table
      | 1  | 2  |
      | 7♥ | 8♥ |
    When the player moves 7♥ to column 2
    Then the player moves 8♥ to column 1
    Then column 2 reads 8♥ 7♥
