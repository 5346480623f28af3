Feature: Moving groups with passengers
  Any face-up card may move, and every card above it rides along in the same
  order, whatever those passengers are. Only the leading card is checked.

  @R-MOVE-PASSENGERS-UNORDERED @R-MOVE-ORDER-KEPT
  Rule: Passengers ride along in their order, whatever they are

    @id:MOVE-001
    Example: 9♦ carrying K♥ and 4♣ moves onto 10♦
      Given the table
        | 1    | 2   |
        | [4♠] | 10♦ |
        | 9♦   |     |
        | K♥   |     |
        | 4♣   |     |
      When the player moves 9♦ to column 2
      Then column 2 reads 10♦ 9♦ K♥ 4♣
      And column 1 reads 4♠
      And 4♠ is face up
