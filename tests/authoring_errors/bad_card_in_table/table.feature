# One error: a card of rank 11 in the position table.
Feature: Moving cards

  @id:MOVE-902
  Scenario: a card moves onto the next higher card of its suit
    Given the table
      | 1  | 2   |
      | 7♥ | 8♥  |
      |    | 11♦ |
    When the player moves 7♥ to column 2
    Then the action is refused
