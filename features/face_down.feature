Feature: Flipping face-down cards
  A hidden card turns face up as soon as the last face-up card above it has
  gone. The turn is part of the action that uncovered it, only the uppermost
  hidden card turns, and from then on it plays like any other card.

  @R-FLIP-AUTOMATIC
  Rule: A hidden card left on top of its column turns face up

    @id:FLIP-001
    Example: Moving the last face-up card reveals the card beneath
      Given the table
        | 1    | 2  |
        | [2♥] | 6♠ |
        | [7♣] |    |
        | 5♠   |    |
      When the player moves 5♠ to column 2
      Then column 1 reads [2♥] 7♣
      And 7♣ is face up

    @id:FLIP-002
    Example: A group leaving with its passengers reveals the card beneath
      Given the table
        | 1    | 2  |
        | [J♦] | 9♣ |
        | [4♥] |    |
        | 8♣   |    |
        | Q♦   |    |
        | 2♠   |    |
      When the player moves 8♣ to column 2
      Then column 1 reads [J♦] 4♥
      And column 2 reads 9♣ 8♣ Q♦ 2♠

    @id:FLIP-003
    Example: A hidden card still covered by a face-up card stays hidden
      Given the table
        | 1    | 2  |
        | [2♥] | 6♠ |
        | [7♣] |    |
        | 6♦   |    |
        | 5♠   |    |
      When the player moves 5♠ to column 2
      Then column 1 reads [2♥] [7♣] 6♦
      And 7♣ is face down

  @R-FLIP-ONE-CARD
  Rule: Only the uppermost hidden card turns over

    @id:FLIP-004
    Example: Of three hidden cards only the top one turns
      Given the table
        | 1    | 2  |
        | [A♣] | 6♠ |
        | [2♥] |    |
        | [7♣] |    |
        | 5♠   |    |
      When the player moves 5♠ to column 2
      Then column 1 reads [A♣] [2♥] 7♣
      And A♣ is face down
      And 2♥ is face down

    @id:FLIP-005
    Example: Hidden cards turn one at a time as the column is dug out
      Given the table
        | 1    | 2  | 3  |
        | [A♣] | 6♠ | 8♣ |
        | [2♥] |    |    |
        | [7♣] |    |    |
        | 5♠   |    |    |
      When the player plays 5♠ to column 2, 7♣ to column 3
      Then column 1 reads [A♣] 2♥
      And column 3 reads 8♣ 7♣

  @R-FLIP-SAME-ACTION
  Rule: Turning a card over is part of the move, never an action of its own

    @id:FLIP-006
    Example: No flip is offered as an action
      Given the table
        | 1    | 2  | 3  | 4  | 5  | 6  | 7  |
        | [9♥] | 6♠ | 8♣ | J♦ | 4♥ | Q♠ | 2♦ |
        | [7♣] |    |    |    |    |    |    |
        | 5♠   |    |    |    |    |    |    |
      Then the legal actions are exactly 5♠ to column 2

    @id:FLIP-007 @R-MOVE-ONE-ACTION
    Example: The card is already face up when the move is over
      Given the table
        | 1    | 2  | 3  | 4  | 5  | 6  | 7  |
        | [9♥] | 6♠ | 8♣ | J♦ | 4♥ | Q♠ | 2♦ |
        | [7♣] |    |    |    |    |    |    |
        | 5♠   |    |    |    |    |    |    |
      When the player moves 5♠ to column 2
      Then column 1 reads [9♥] 7♣
      And 9♥ is face down

  @R-FLIP-PLAYABLE
  Rule: A revealed card plays like any other face-up card

    @id:FLIP-008
    Example: A revealed card may move straight away
      Given the table
        | 1    | 2  | 3  | 4  | 5  | 6  | 7  |
        | [9♥] | 6♠ | 8♣ | J♦ | 4♥ | Q♠ | 2♦ |
        | [7♣] |    |    |    |    |    |    |
        | 5♠   |    |    |    |    |    |    |
      When the player moves 5♠ to column 2
      Then the legal actions are exactly 7♣ to column 3

    @id:FLIP-009
    Example: A revealed card may receive a group
      Given the table
        | 1    | 2  | 3     |
        | [7♣] | 6♠ | [10♥] |
        | 5♠   |    | 6♣    |
        |      |    | 3♦    |
      When the player plays 5♠ to column 2, 6♣ to column 1
      Then column 1 reads 7♣ 6♣ 3♦
      And column 3 reads 10♥

  @R-FLIP-HIDDEN-REFUSED-FIRST
  Rule: A hidden card is refused for being face down, wherever it is sent

    @id:FLIP-010
    Example: A face-down card sent to its own column is refused as face down
      soliterm 1.2.0 refuses it as destination-is-source: Solitaire.why_not looks at the destination first.
      Given the table
        | 1    | 2  |
        | [5♦] | 6♦ |
        | [J♠] |    |
        | 9♣   |    |
      When the player moves 5♦ to column 1
      Then the action is refused as card-face-down

    @id:FLIP-011
    Example: A face-down card sent to an empty column is refused as face down
      Given the table
        | 1    | 2  | 3 |
        | [5♦] | 6♦ |   |
        | [J♠] |    |   |
        | 9♣   |    |   |
      When the player moves J♠ to column 3
      Then the action is refused as card-face-down
