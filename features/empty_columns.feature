Feature: Empty columns
  An empty column is a place for a King and whatever lies on it, unless the
  Wasp rule lets any card in. The leading card alone decides. A group that
  already is its whole column gains nothing by moving to another space, and
  most rule sets refuse that transfer.

  @R-EMPTY-KING-ONLY @empty-king
  Rule: Only a King-led group may enter an empty column

    @id:EMPTY-001
    Scenario Outline: A group led by <card> cannot enter an empty column
      Given the table
        | 1      |
        | [8♠]   |
        | <card> |
        | 3♥     |
      When the player moves <card> to column 2
      Then the action is refused as empty-column-needs-king

      Examples:
        | card |
        | Q♣   |
        | J♦   |
        | 10♥  |
        | 2♠   |
        | A♣   |

    @id:EMPTY-002
    Example: 4♣ cannot use a space as a parking place
      Given the table
        | 1    | 2   |
        | [4♠] | 10♦ |
        | 9♦   |     |
        | K♥   |     |
        | 4♣   |     |
      When the player moves 4♣ to column 3
      Then the action is refused as empty-column-needs-king

    @id:EMPTY-003
    Example: Only the King is offered the spaces
      Given the table
        | 1    | 2    |
        | [8♠] | [2♣] |
        | Q♣   | K♦   |
        | 3♥   | 5♠   |
      Then the legal actions are exactly K♦ to column 3, K♦ to column 4, K♦ to column 5, K♦ to column 6, K♦ to column 7

    @id:EMPTY-023 @R-EMPTY-REASON-ORDER
    Example: A Queen alone in her column is refused a space for not being a King
      Given the table
        | 1  | 2   |
        | Q♣ | 10♦ |
      When the player moves Q♣ to column 3
      Then the action is refused as empty-column-needs-king

  @R-EMPTY-QUEEN-CARRYING-KING @empty-king
  Rule: A King among the passengers does not open a space for its leader

    @id:EMPTY-004
    Example: A Queen-led group with a King aboard is kept out of a space
      Given the table
        | 1    |
        | [7♦] |
        | Q♣   |
        | K♥   |
        | 2♠   |
      When the player moves Q♣ to column 2
      Then the action is refused as empty-column-needs-king

    @id:EMPTY-005
    Example: A Jack carrying two Kings is still a Jack
      Given the table
        | 1    |
        | [7♦] |
        | J♠   |
        | K♥   |
        | K♣   |
      When the player moves J♠ to column 3
      Then the action is refused as empty-column-needs-king

  @R-EMPTY-KING-PASSENGERS
  Rule: A King fills a space together with whatever lies on it

    @id:EMPTY-006
    Example: K♥ takes 4♣ into an empty column
      Given the table
        | 1    | 2   |
        | [4♠] | 10♦ |
        | 9♦   |     |
        | K♥   |     |
        | 4♣   |     |
      When the player moves K♥ to column 3
      Then column 3 reads K♥ 4♣
      And column 1 reads [4♠] 9♦

    @id:EMPTY-007 @R-PLACE-KING-NO-TARGET
    Example: K♥ with 4♣ finds no place on 10♦
      Given the table
        | 1    | 2   |
        | [4♠] | 10♦ |
        | 9♦   |     |
        | K♥   |     |
        | 4♣   |     |
      When the player moves K♥ to column 2
      Then the action is refused as not-same-suit

    @id:EMPTY-008
    Example: The King riding on a Queen may leave without her
      Given the table
        | 1    |
        | [7♦] |
        | Q♣   |
        | K♥   |
        | 2♠   |
      When the player moves K♥ to column 2
      Then column 2 reads K♥ 2♠
      And column 1 reads [7♦] Q♣

  @R-EMPTY-ANY-CARD @empty-any
  Rule: Under the Wasp rule any face-up card may fill a space

    @id:EMPTY-009
    Scenario Outline: Under the Wasp rule <card> fills a space
      Given the table
        | 1      |
        | [8♠]   |
        | <card> |
        | 3♥     |
      When the player moves <card> to column 2
      Then column 2 reads <card> 3♥
      And column 1 reads 8♠

      Examples:
        | card |
        | Q♣   |
        | J♦   |
        | 10♥  |
        | 2♠   |
        | A♣   |

    @id:EMPTY-010
    Example: Under the Wasp rule a Queen carrying a King fills a space
      Given the table
        | 1    |
        | [7♦] |
        | Q♣   |
        | K♥   |
        | 2♠   |
      When the player moves Q♣ to column 2
      Then column 2 reads Q♣ K♥ 2♠
      And column 1 reads 7♦

    @id:EMPTY-011 @whole-column-refused
    Example: Under the Wasp rule every card not alone in its column is offered the spaces
      Given the table
        | 1    | 2    | 3  | 4  | 5   |
        | [8♠] | [2♥] | 3♣ | 7♥ | 10♦ |
        | 5♦   | J♠   |    |    |     |
        | 9♣   |      |    |    |     |
      Then the legal actions are exactly 5♦ to column 6, 5♦ to column 7, 9♣ to column 6, 9♣ to column 7, J♠ to column 6, J♠ to column 7

  @R-EMPTY-WHOLE-COLUMN-MEANING
  Rule: A group is its whole column only when nothing at all lies beneath it

    @id:EMPTY-012 @R-FLIP-AUTOMATIC
    Example: A King resting on hidden cards may move to a space
      Given the table
        | 1    |
        | [3♠] |
        | K♥   |
        | 7♣   |
        | 2♦   |
        | 10♠  |
      When the player moves K♥ to column 4
      Then column 4 reads K♥ 7♣ 2♦ 10♠
      And column 1 reads 3♠

    @id:EMPTY-013
    Example: A King resting on face-up cards may move to a space
      Given the table
        | 1  |
        | 8♣ |
        | K♥ |
        | 2♦ |
      When the player moves K♥ to column 3
      Then column 3 reads K♥ 2♦
      And column 1 reads 8♣

  @R-EMPTY-WHOLE-COLUMN-REFUSED @whole-column-refused
  Rule: A group that is its whole column may not move to another space

    @id:EMPTY-014
    Example: A whole King-led column cannot move to another space
      Given the table
        | 1  | 2  |
        | K♠ | 5♥ |
        | Q♦ |    |
        | 3♣ |    |
      When the player moves K♠ to column 3
      Then the action is refused as whole-column-to-empty

    @id:EMPTY-021
    Example: A whole King-led column is not offered another space
      Given the table
        | 1  | 2  |
        | K♠ | 5♥ |
        | Q♦ |    |
        | 3♣ |    |
      Then K♠ to column 3 is not legal
      And K♠ to column 7 is not legal

    @id:EMPTY-015 @empty-king
    Example: Whole-column transfers are left out of the legal actions
      Given the table
        | 1  | 2    |
        | K♠ | [9♣] |
        | Q♦ | K♥   |
        | 3♣ |      |
      Then the legal actions are exactly K♥ to column 3, K♥ to column 4, K♥ to column 5, K♥ to column 6, K♥ to column 7

    @id:EMPTY-016 @empty-any
    Example: Under the Wasp rule a card alone in its column stays put
      Given the table
        | 1  | 2  |
        | 5♣ | 9♥ |
      When the player moves 5♣ to column 3
      Then the action is refused as whole-column-to-empty

    @id:EMPTY-022 @empty-any
    Example: Under the Wasp rule cards alone in their columns are offered nothing
      Given the table
        | 1  | 2  |
        | 5♣ | 9♥ |
      Then no action is legal

  @R-EMPTY-WHOLE-COLUMN-ALLOWED @whole-column-allowed
  Rule: Where allowed, a whole King-led column may move to another space

    @id:EMPTY-017
    Example: A whole King-led column moves to another space
      Given the table
        | 1  | 2  |
        | K♠ | 5♥ |
        | Q♦ |    |
        | 3♣ |    |
      When the player moves K♠ to column 3
      Then column 3 reads K♠ Q♦ 3♣
      And column 1 is empty

    @id:EMPTY-018 @empty-king
    Example: Whole-column transfers are listed where they are allowed
      Given the table
        | 1  | 2    |
        | K♠ | [9♣] |
        | Q♦ | K♥   |
        | 3♣ |      |
      Then the legal actions are exactly K♠ to column 3, K♠ to column 4, K♠ to column 5, K♠ to column 6, K♠ to column 7, K♥ to column 3, K♥ to column 4, K♥ to column 5, K♥ to column 6, K♥ to column 7

  @R-EMPTY-WHOLE-COLUMN-ONTO-CARD
  Rule: A whole column may still move onto a matching card

    @id:EMPTY-019
    Example: A whole column lands on a card and leaves a space behind
      Given the table
        | 1  | 2   |
        | 9♦ | 10♦ |
        | K♥ |     |
        | 4♣ |     |
      When the player moves 9♦ to column 2
      Then column 2 reads 10♦ 9♦ K♥ 4♣
      And column 1 is empty

    @id:EMPTY-020
    Example: The space left behind takes a King
      Given the table
        | 1  | 2   | 3    | 4  | 5  | 6  | 7  |
        | 9♦ | 10♦ | [6♠] | 2♣ | 4♥ | 7♠ | J♣ |
        | 4♣ |     | K♥   |    |    |    |    |
        |    |     | 5♦   |    |    |    |    |
      When the player plays 9♦ to column 2, K♥ to column 1
      Then column 1 reads K♥ 5♦
      And column 3 reads 6♠
      And column 2 reads 10♦ 9♦ 4♣
