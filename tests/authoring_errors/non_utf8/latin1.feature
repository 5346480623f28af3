# One error: the file is Latin-1, not UTF-8 (the accented letter on line 5).
Feature: Moving cards

  @id:MOVE-908
  Scenario: a card moves (café)
    Given the table
      | 1  | 2  |
      | 7H | 8H |
    When the player moves 7H to column 2
    Then column 2 reads 8H 7H
