Feature: Same-suit placement
  A group may land on a card only when its leading card has the same suit and
  is exactly one rank lower. Colour alone is not enough, Aces are low, ranks
  never wrap, nothing lands on an Ace and a King has no card to go onto.

  @R-PLACE-SAME-SUIT-NEXT-RANK
  Rule: The leading card goes onto the next higher card of its own suit

    @id:PLACE-001
    Scenario Outline: <card> lands on <target>
      Given the table
        | 1      | 2        |
        | [4♠]   | <target> |
        | <card> |          |
      When the player moves <card> to column 2
      Then column 2 reads <target> <card>
      And column 1 reads 4♠

      Examples:
        | card | target |
        | 10♠  | J♠     |
        | 5♣   | 6♣     |
        | 2♦   | 3♦     |
        | Q♥   | K♥     |
        | A♣   | 2♣     |
        | 6♥   | 7♥     |

    @id:PLACE-002
    Example: 9♦ goes onto 10♦
      Given the table
        | 1    | 2   | 3   | 4  |
        | [6♣] | 10♦ | 10♥ | J♦ |
        | 9♦   |     |     |    |
      When the player moves 9♦ to column 2
      Then column 2 reads 10♦ 9♦
      And column 1 reads 6♣

    @id:PLACE-003
    Example: The 7♥ goes onto the 8♥
      Given the table
        | 1    | 2  | 3  |
        | [2♠] | 8♥ | 8♠ |
        | 7♥   |    |    |
      When the player moves 7♥ to column 2
      Then column 2 reads 8♥ 7♥
      And column 3 reads 8♠

    @id:PLACE-004
    Example: The 7♥ does not go onto the 8♠
      Given the table
        | 1    | 2  | 3  |
        | [2♠] | 8♥ | 8♠ |
        | 7♥   |    |    |
      When the player moves 7♥ to column 3
      Then the action is refused as not-same-suit

    @id:PLACE-005
    Example: 8♥ with three passengers is turned away from 9♦
      Given the table
        | 2    | 5  | 6   |
        | [2♣] | 4♣ | 10♠ |
        | [6♠] | 9♥ | 9♦  |
        | [J♦] |    |     |
        | 8♥   |    |     |
        | 3♣   |    |     |
        | J♠   |    |     |
        | 5♦   |    |     |
      When the player moves 8♥ to column 6
      Then the action is refused as not-same-suit

    @id:PLACE-020
    Example: Of the two nines only 9♥ is offered to 8♥
      Given the table
        | 2    | 5  | 6   |
        | [2♣] | 4♣ | 10♠ |
        | [6♠] | 9♥ | 9♦  |
        | [J♦] |    |     |
        | 8♥   |    |     |
        | 3♣   |    |     |
        | J♠   |    |     |
        | 5♦   |    |     |
      Then 8♥ to column 5 is legal
      And 8♥ to column 6 is not legal

    @id:PLACE-006
    Scenario Outline: The J♣ is turned away from <target>, a Queen of another suit
      Given the table
        | 1    | 2        |
        | [4♥] | <target> |
        | J♣   |          |
        | 6♦   |          |
      When the player moves J♣ to column 2
      Then the action is refused as not-same-suit

      Examples:
        | target |
        | Q♠     |
        | Q♦     |
        | Q♥     |

    @id:PLACE-021
    Scenario Outline: The J♣ is turned away from <target>, a club of the wrong rank
      Given the table
        | 1    | 2        |
        | [4♥] | <target> |
        | J♣   |          |
        | 6♦   |          |
      When the player moves J♣ to column 2
      Then the action is refused as not-one-rank-lower

      Examples:
        | target |
        | K♣     |
        | 10♣    |

  @R-PLACE-COLOUR-NOT-ENOUGH
  Rule: A card of the same colour but another suit is no landing place

    @id:PLACE-007
    Example: 9♦ is turned away from 10♥
      Given the table
        | 1    | 2   | 3   | 4  |
        | [6♣] | 10♦ | 10♥ | J♦ |
        | 9♦   |     |     |    |
      When the player moves 9♦ to column 3
      Then the action is refused as not-same-suit

    @id:PLACE-008
    Example: A tidy red sequence led by 9♦ cannot land on 10♥
      Given the table
        | 1    | 2   |
        | [3♣] | 10♥ |
        | 9♦   |     |
        | 8♦   |     |
        | 7♦   |     |
        | 6♦   |     |
      When the player moves 9♦ to column 2
      Then the action is refused as not-same-suit

    @id:PLACE-009
    Scenario Outline: <card> is turned away from <target> of the same colour
      Given the table
        | 1      | 2        |
        | [7♣]   | <target> |
        | <card> |          |
      When the player moves <card> to column 2
      Then the action is refused as not-same-suit

      Examples:
        | card | target |
        | 4♠   | 5♣     |
        | J♥   | Q♦     |
        | 2♣   | 3♠     |
        | 8♦   | 9♥     |

  @R-PLACE-ONE-RANK-EXACTLY
  Rule: The target is exactly one rank above the leading card

    @id:PLACE-010
    Example: 9♦ is turned away from J♦
      Given the table
        | 1    | 2   | 3   | 4  |
        | [6♣] | 10♦ | 10♥ | J♦ |
        | 9♦   |     |     |    |
      When the player moves 9♦ to column 4
      Then the action is refused as not-one-rank-lower

    @id:PLACE-011
    Scenario Outline: <card> is turned away from <target> of its own suit
      Given the table
        | 1      | 2        |
        | [8♣]   | <target> |
        | <card> |          |
      When the player moves <card> to column 2
      Then the action is refused as not-one-rank-lower

      Examples:
        | card | target |
        | 4♣   | 6♣     |
        | 10♠  | K♠     |
        | 7♥   | 6♥     |
        | Q♦   | J♦     |
        | 2♠   | 4♠     |

  @R-PLACE-NO-WRAP
  Rule: Aces are low, Kings are high, and the ranks never wrap round

    @id:PLACE-012
    Example: A King cannot wrap onto an Ace
      Given the table
        | 1    | 2  |
        | [3♦] | A♠ |
        | K♠   |    |
      When the player moves K♠ to column 2
      Then the action is refused as not-one-rank-lower

    @id:PLACE-013
    Example: An Ace cannot wrap onto a King
      Given the table
        | 1    | 2  |
        | [3♦] | K♠ |
        | A♠   |    |
      When the player moves A♠ to column 2
      Then the action is refused as not-one-rank-lower

    @id:PLACE-014
    Example: Kings and Aces side by side offer no move
      Given the table
        | 1    | 2  | 3  | 4    | 5  | 6  | 7  |
        | [3♦] | A♠ | K♥ | [9♣] | 5♦ | 8♣ | J♠ |
        | K♠   |    |    | A♥   |    |    |    |
      Then no action is legal

  @R-PLACE-NOTHING-ON-ACE
  Rule: Nothing is ever played onto an Ace

    @id:PLACE-015
    Scenario Outline: <card> cannot land on the A♠ of its own suit
      Given the table
        | 1      | 2  |
        | [7♣]   | A♠ |
        | <card> |    |
      When the player moves <card> to column 2
      Then the action is refused as not-one-rank-lower

      Examples:
        | card |
        | 2♠   |
        | 3♠   |

    @id:PLACE-022
    Scenario Outline: <card> of another suit cannot land on the A♠
      Given the table
        | 1      | 2  |
        | [7♣]   | A♠ |
        | <card> |    |
      When the player moves <card> to column 2
      Then the action is refused as not-same-suit

      Examples:
        | card |
        | 2♥   |
        | A♥   |

    @id:PLACE-016
    Example: An exposed Ace turns the 8♥ away
      Given the table
        | 1  | 2  | 3    |
        | 9♥ | 2♣ | [5♠] |
        | A♣ |    | 8♥   |
      When the player moves 8♥ to column 1
      Then the action is refused as not-same-suit

    @id:PLACE-017
    Example: Once its Ace has moved on the column takes the 8♥
      Given the table
        | 1  | 2  | 3    |
        | 9♥ | 2♣ | [5♠] |
        | A♣ |    | 8♥   |
      When the player plays A♣ to column 2, 8♥ to column 1
      Then column 1 reads 9♥ 8♥
      And column 2 reads 2♣ A♣
      And column 3 reads 5♠

  @R-PLACE-KING-NO-TARGET
  Rule: A King never lands on a card

    @id:PLACE-018
    Scenario Outline: A King is turned away from <target> of its own suit
      Given the table
        | 1    | 2        |
        | [5♣] | <target> |
        | K♥   |          |
      When the player moves K♥ to column 2
      Then the action is refused as not-one-rank-lower

      Examples:
        | target |
        | Q♥     |
        | A♥     |

    @id:PLACE-023
    Scenario Outline: A King is turned away from <target> of another suit
      Given the table
        | 1    | 2        |
        | [5♣] | <target> |
        | K♥   |          |
      When the player moves K♥ to column 2
      Then the action is refused as not-same-suit

      Examples:
        | target |
        | K♠     |
        | 10♦    |

    @id:PLACE-019 @R-LOSS-NO-ACTION
    Example: A King with no space to go to has no move
      Given the table
        | 1    | 2  | 3  | 4  | 5  | 6  | 7  |
        | [5♣] | Q♥ | K♠ | A♥ | 7♣ | 9♦ | 4♠ |
        | K♥   |    |    |    |    |    |    |
        | 2♦   |    |    |    |    |    |    |
      Then no action is legal
      And the game is lost
