# One error: a scenario with no Then step checks nothing.
Feature: Moving cards

  @id:MOVE-907
  Scenario: a card moves onto the next higher card of its suit
    Given the table
      | 1  | 2  |
      | 7♥ | 8♥ |
    When the player moves 7♥ to column 2
