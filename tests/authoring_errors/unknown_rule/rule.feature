# One error: a catalogue tag that names no rule of the catalogue.
Feature: Empty columns

  @id:EMPTY-901 @R-EMPTY-KING-ONL
  Scenario: a king fills an empty column
    Given the table
      | 1  | 2 |
      | K♥ |   |
      | Q♠ |   |
    When the player moves Q♠ to column 2
    Then the action is refused
