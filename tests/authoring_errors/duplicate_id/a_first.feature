# One error (with b_second.feature): the id MOVE-905 is used twice.
Feature: Moving cards

  @id:MOVE-905
  Scenario: a card moves onto the next higher card of its suit
    Given the table
      | 1  | 2  |
      | 7♥ | 8♥ |
    When the player moves 7♥ to column 2
    Then column 2 reads 8♥ 7♥
