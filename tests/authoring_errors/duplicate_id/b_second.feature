# One error (with a_first.feature): the id MOVE-905 is used twice.
Feature: Refused moves

  @id:MOVE-906
  Scenario: a card does not move onto a card of another suit
    Given the table
      | 1  | 2  |
      | 7♥ | 8♠ |
    When the player moves 7♥ to column 2
    Then the action is refused

  @id:MOVE-905
  Scenario: a card does not move onto a lower card
    Given the table
      | 1  | 2  |
      | 7♥ | 6♥ |
    When the player moves 7♥ to column 2
    Then the action is refused
