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

    @id:MOVE-002
    Example: Q♣ brings 4♦ and 10♥ along onto K♣
      Given the table
        | 2    | 5  |
        | [7♠] | 3♥ |
        | J♦   | K♣ |
        | Q♣   |    |
        | 4♦   |    |
        | 10♥  |    |
      When the player moves Q♣ to column 5
      Then column 5 reads 3♥ K♣ Q♣ 4♦ 10♥
      And column 2 reads [7♠] J♦

    @id:MOVE-003 @R-FLIP-AUTOMATIC @R-MOVE-ONE-ACTION
    Example: 8♥ carries three passengers onto 9♥ and a hidden card turns up
      Given the table
        | 2    | 5  | 6   |
        | [2♣] | 4♣ | 10♠ |
        | [6♠] | 9♥ | 9♦  |
        | [J♦] |    |     |
        | 8♥   |    |     |
        | 3♣   |    |     |
        | J♠   |    |     |
        | 5♦   |    |     |
      When the player moves 8♥ to column 5
      Then column 5 reads 4♣ 9♥ 8♥ 3♣ J♠ 5♦
      And column 2 reads [2♣] [6♠] J♦
      And column 6 reads 10♠ 9♦

  @R-MOVE-LEADER-ONLY
  Rule: Only the leading card decides where a group may go

    @id:MOVE-004
    Example: A jumbled pile lands because its leader fits
      Given the table
        | 1    | 2  |
        | [9♠] | 7♣ |
        | 6♣   |    |
        | A♥   |    |
        | K♠   |    |
        | 2♦   |    |
        | Q♥   |    |
      When the player moves 6♣ to column 2
      Then column 2 reads 7♣ 6♣ A♥ K♠ 2♦ Q♥
      And column 1 reads 9♠

    @id:MOVE-005
    Example: A passenger that fits does not carry a leader that does not
      Given the table
        | 1    | 2   |
        | [5♥] | 10♠ |
        | 3♦   |     |
        | 9♠   |     |
      When the player moves 3♦ to column 2
      Then the action is refused as not-same-suit

  @R-MOVE-TOP-CARD-ALONE
  Rule: The exposed card may travel by itself

    @id:MOVE-006
    Example: 4♣ alone goes onto 5♣
      Given the table
        | 1    | 2   | 3  |
        | [4♠] | 10♦ | 5♣ |
        | 9♦   |     |    |
        | K♥   |     |    |
        | 4♣   |     |    |
      When the player moves 4♣ to column 3
      Then column 3 reads 5♣ 4♣
      And column 1 reads [4♠] 9♦ K♥

    @id:MOVE-007 @R-PLACE-SAME-SUIT-NEXT-RANK
    Example: 4♣ alone finds no place on 10♦
      Given the table
        | 1    | 2   | 3  |
        | [4♠] | 10♦ | 5♣ |
        | 9♦   |     |    |
        | K♥   |     |    |
        | 4♣   |     |    |
      When the player moves 4♣ to column 2
      Then the action is refused as not-same-suit

    @id:MOVE-008
    Example: The 9♠ left on top of a pile moves off by itself
      Given the table
        | 1    | 2   |
        | [5♥] | 10♠ |
        | 3♦   |     |
        | 9♠   |     |
      When the player moves 9♠ to column 2
      Then column 2 reads 10♠ 9♠
      And column 1 reads [5♥] 3♦

  @R-MOVE-ANY-FACE-UP
  Rule: A card deep in a pile may be picked as long as it shows its face

    @id:MOVE-009
    Scenario Outline: Picking <card> from a pile of four takes what lies above it
      Given the table
        | 1    | 2  | 3  | 4  | 5  |
        | [7♥] | 9♣ | 3♥ | Q♠ | 6♦ |
        | 8♣   |    |    |    |    |
        | 2♥   |    |    |    |    |
        | J♠   |    |    |    |    |
        | 5♦   |    |    |    |    |
      When the player moves <card> to column <column>
      Then column <column> reads <arrived>
      And column 1 reads <left>

      Examples:
        | card | column | arrived        | left          |
        | 8♣   | 2      | 9♣ 8♣ 2♥ J♠ 5♦ | 7♥            |
        | 2♥   | 3      | 3♥ 2♥ J♠ 5♦    | [7♥] 8♣       |
        | J♠   | 4      | Q♠ J♠ 5♦       | [7♥] 8♣ 2♥    |
        | 5♦   | 5      | 6♦ 5♦          | [7♥] 8♣ 2♥ J♠ |

  @R-MOVE-NO-PARTIAL
  Rule: A move takes every card above the chosen one

    @id:MOVE-010
    Example: Picking a middle card takes the cards above it as well
      Given the table
        | 1  | 2  |
        | 7♠ | 4♦ |
        | 3♦ |    |
        | Q♥ |    |
        | 2♣ |    |
      When the player moves 3♦ to column 2
      Then column 2 reads 4♦ 3♦ Q♥ 2♣
      And column 1 reads 7♠

    @id:MOVE-011
    Example: A passenger with a home of its own still rides along
      Given the table
        | 1    | 2  | 3   |
        | [2♣] | 7♥ | 10♠ |
        | 6♥   |    |     |
        | J♣   |    |     |
        | 9♠   |    |     |
      When the player moves 6♥ to column 2
      Then column 2 reads 7♥ 6♥ J♣ 9♠
      And column 3 reads 10♠
      And column 1 reads 2♣

  @R-MOVE-HIDDEN-STAYS
  Rule: Face-down cards are never picked up

    @id:MOVE-012
    Example: A face-down card cannot be moved
      Given the table
        | 1    | 2  |
        | [5♦] | 6♦ |
        | [J♠] |    |
        | 9♣   |    |
        | 2♥   |    |
      When the player moves 5♦ to column 2
      Then the action is refused as card-face-down

    @id:MOVE-013
    Example: A hidden card that would fit is not offered
      Given the table
        | 1    | 2  |
        | [5♦] | 6♦ |
        | [J♠] |    |
        | 9♣   |    |
        | 2♥   |    |
      Then 5♦ to column 2 is not legal
      And J♠ to column 3 is not legal

    @id:MOVE-014
    Example: A group reaches down only to the lowest face-up card
      Given the table
        | 1    | 2  |
        | [8♠] | J♣ |
        | [3♦] |    |
        | 10♣  |    |
        | 6♥   |    |
      When the player moves 10♣ to column 2
      Then column 2 reads J♣ 10♣ 6♥
      And column 1 reads [8♠] 3♦

  @R-MOVE-NOT-ONTO-HIDDEN
  Rule: A hidden card is never a landing place

    @id:MOVE-015
    Example: A hidden 10♦ does not take 9♦
      Given the table
        | 1     | 2  |
        | [10♦] | 5♣ |
        | 3♠    | 9♦ |
      When the player moves 9♦ to column 1
      Then the action is refused as not-same-suit

  @R-MOVE-DEST-EXPOSED
  Rule: Only the exposed top card of a column receives a group

    @id:MOVE-016
    Example: A covered 10♦ does not take 9♦
      Given the table
        | 1   | 2  |
        | 10♦ | 2♥ |
        | 4♠  | 9♦ |
      When the player moves 9♦ to column 1
      Then the action is refused as not-same-suit

    @id:MOVE-017
    Example: Once uncovered the 10♦ takes 9♦
      Given the table
        | 1   | 2  | 3  |
        | 10♦ | 2♥ | 5♠ |
        | 4♠  | 9♦ |    |
      When the player plays 4♠ to column 3, 9♦ to column 1
      Then column 1 reads 10♦ 9♦
      And column 2 reads 2♥
      And column 3 reads 5♠ 4♠

  @R-MOVE-TERMS
  Rule: The top of a column is its exposed card, drawn in the last row

    @id:MOVE-018
    Example: The card in the last row is the one that receives
      Given the table
        | 1   | 2  |
        | 3♠  | 5♣ |
        | 10♦ | 9♦ |
      When the player moves 9♦ to column 1
      Then column 1 reads 3♠ 10♦ 9♦
      And column 1 ends with 10♦ 9♦
      And column 2 reads 5♣

  @R-MOVE-OTHER-COLUMN
  Rule: A group cannot be moved into its own column

    @id:MOVE-019
    Example: 9♦ already on 10♦ cannot be dropped on its own column
      Given the table
        | 1    |
        | [3♣] |
        | 10♦  |
        | 9♦   |
        | 5♠   |
      When the player moves 9♦ to column 1
      Then the action is refused as destination-is-source

    @id:MOVE-023
    Example: A move to its own column is never offered
      Given the table
        | 1    |
        | [3♣] |
        | 10♦  |
        | 9♦   |
        | 5♠   |
      Then 9♦ to column 1 is not legal
      And 5♠ to column 1 is not legal

  @R-MOVE-SINGLE-TARGET
  Rule: A group led by anything but a King has at most one card to go to

    @id:MOVE-020
    Example: Among four Queens and no space the J♣ has one landing place
      Given the table
        | 1    | 2  | 3  | 4  | 5  | 6   | 7  |
        | [4♥] | Q♣ | Q♠ | Q♦ | 8♠ | 10♣ | Q♥ |
        | J♣   |    |    |    |    |     |    |
        | 6♦   |    |    |    |    |     |    |
      Then the legal actions are exactly J♣ to column 2

    @id:MOVE-021
    Example: The J♣ lands on the Q♣ with its passenger
      Given the table
        | 1    | 2  | 3  | 4  | 5  | 6   | 7  |
        | [4♥] | Q♣ | Q♠ | Q♦ | 8♠ | 10♣ | Q♥ |
        | J♣   |    |    |    |    |     |    |
        | 6♦   |    |    |    |    |     |    |
      When the player moves J♣ to column 2
      Then column 2 reads Q♣ J♣ 6♦
      And column 1 reads 4♥

  @R-MOVE-REASON-CODES
  Rule: A refused action says why, and changes nothing

    @id:MOVE-022
    Example: After a refused move the same cards are still there to play
      Given the table
        | 1    | 2   | 3  |
        | [4♠] | 10♦ | 5♣ |
        | 9♦   |     |    |
        | K♥   |     |    |
        | 4♣   |     |    |
      When the player moves 9♦ to column 3
      Then the action is refused as not-same-suit
      When the player moves 9♦ to column 2
      Then column 2 reads 10♦ 9♦ K♥ 4♣
      And column 3 reads 5♣
