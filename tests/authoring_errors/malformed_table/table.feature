# One error: a table row with fewer cells than the header.
Feature: Moving cards

  @id:MOVE-903
  Scenario: a card moves onto the next higher card of its suit
    Given the table
      | 1  | 2  |
      | 7♥ |
    When the player moves 7♥ to column 2
    Then column 2 reads 8♥ 7♥
