# One error: a step sentence that is not in the step library.
Feature: Moving cards

  @id:MOVE-901
  Scenario: a card moves onto the next higher card of its suit
    Given the table
      | 1  | 2  |
      | 7♥ | 8♥ |
    When the player drags 7♥ onto column 2
    Then column 2 reads 8♥ 7♥
