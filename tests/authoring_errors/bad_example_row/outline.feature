# One error: the second example row holds a card with no suit.
Feature: Moving cards

  @id:MOVE-912
  Scenario Outline: a <card> moves onto the next higher card of its suit
    Given the table
      | 1      | 2        |
      | <card> | <target> |
    When the player moves <card> to column 2
    Then column 2 reads <target> <card>

    Examples:
      | card | target |
      | 7♥   | 8♥     |
      | 7    | 8♣     |
