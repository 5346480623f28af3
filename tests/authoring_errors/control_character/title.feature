# A scenario whose name would retitle the terminal window and clear the screen.
Feature: Moving cards

  @id:MOVE-916
  Scenario: a card moves onto the next higher card of its suit ]0;owned[2J
    Given the table
      | 1  | 2  |
      | 7♥ | 8♥ |
    When the player moves 7♥ to column 2
    Then column 2 reads 8♥ 7♥
