# One error: a misspelt option tag.
Feature: Collecting runs

  @id:COLLECT-901 @runs-colect
  Scenario: placing the ace on its two collects the run
    Given the table
      | 1  | 2  |
      | K♠ | A♠ |
      | Q♠ |    |
      | J♠ |    |
      | 10♠ |   |
      | 9♠ |    |
      | 8♠ |    |
      | 7♠ |    |
      | 6♠ |    |
      | 5♠ |    |
      | 4♠ |    |
      | 3♠ |    |
      | 2♠ |    |
    When the player moves A♠ to column 1
    Then the ♠ run has been collected
