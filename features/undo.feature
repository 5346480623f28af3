Feature: Undo
  Undo takes back one whole action, with every flip and collection that came
  with it, and returns a dealt stock. There is no limit on how far back the
  player may go, but nothing can be taken back before the first action.

  @R-UNDO-WHOLE-ACTION
  Rule: One undo takes back one complete action

    @id:UNDO-001 @undo @R-MOVE-ONE-ACTION @R-UNDO-FLIPS
    Example: One undo takes back a move together with its flip
      Given the table
        | 1    | 2   |
        | [4♠] | 10♦ |
        | 9♦   |     |
        | K♥   |     |
        | 4♣   |     |
      When the player moves 9♦ to column 2
      And the player undoes the last action
      Then the table is as it was at the start
      And column 1 reads [4♠] 9♦ K♥ 4♣
      And column 2 reads 10♦

    @id:UNDO-002 @undo
    Example: Undo takes back only the latest of two moves
      Given the table
        | 1    | 2   | 3  |
        | [4♠] | 10♦ | 5♣ |
        | 9♦   |     |    |
        | K♥   |     |    |
        | 4♣   |     |    |
      When the player plays 4♣ to column 3, 9♦ to column 2
      And the player undoes the last action
      Then column 1 reads [4♠] 9♦ K♥
      And column 2 reads 10♦
      And column 3 reads 5♣ 4♣

  @R-UNDO-FLIPS
  Rule: Undo turns a revealed card face down again

    @id:UNDO-003 @undo
    Example: Undo hides the card that 8♥ uncovered
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
      And the player undoes the last action
      Then column 2 reads [2♣] [6♠] [J♦] 8♥ 3♣ J♠ 5♦
      And column 5 reads 4♣ 9♥
      And J♦ is face down

  @R-UNDO-COLLECTIONS @runs-collect
  Rule: Undo puts a collected run back on the table

    @id:UNDO-004 @undo
    Example: Undo returns a collected run to its column
      Given the table
        | 1   | 2  |
        | K♠  | 9♥ |
        | Q♠  | A♠ |
        | J♠  |    |
        | 10♠ |    |
        | 9♠  |    |
        | 8♠  |    |
        | 7♠  |    |
        | 6♠  |    |
        | 5♠  |    |
        | 4♠  |    |
        | 3♠  |    |
        | 2♠  |    |
      When the player moves A♠ to column 1
      And the player undoes the last action
      Then the table is as it was at the start
      And no run has been collected
      And column 2 reads 9♥ A♠

    @id:UNDO-005 @undo
    Example: Undo restores two collected runs and the card turned up after them
      Given the table
        | 1    | 2   |
        | [7♦] | K♥  |
        | K♠   | Q♥  |
        | Q♠   | J♥  |
        | J♠   | 10♥ |
        | 10♠  | 9♥  |
        | 9♠   | 8♥  |
        | 8♠   | 7♥  |
        | 7♠   | 6♥  |
        | 6♠   | 5♥  |
        | 5♠   | 4♥  |
        | 4♠   | 3♥  |
        | 3♠   | 2♥  |
        | 2♠   | A♥  |
        |      | A♠  |
      When the player moves A♠ to column 1
      And the player undoes the last action
      Then the table is as it was at the start
      And 7♦ is face down
      And the ♥ run has not been collected
      And the ♠ run has not been collected

    @id:UNDO-006 @undo @R-WIN-COLLECT-FOUR
    Example: Undoing the winning move takes the win back
      Given the table
        | 1   | 2  |
        | K♠  | A♠ |
        | Q♠  |    |
        | J♠  |    |
        | 10♠ |    |
        | 9♠  |    |
        | 8♠  |    |
        | 7♠  |    |
        | 6♠  |    |
        | 5♠  |    |
        | 4♠  |    |
        | 3♠  |    |
        | 2♠  |    |
      And the ♣ and ♦ runs have been collected
      And the ♥ run has been collected
      When the player moves A♠ to column 1
      And the player undoes the last action
      Then the game is playing
      And the ♠ run has not been collected
      And the ♥ run has been collected

  @R-UNDO-STOCK
  Rule: Undoing the deal puts the stock back

    @id:UNDO-007 @undo
    Example: Undo returns the stock cards in their order
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7  |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | Q♥ |
      And the stock holds 2♣ 3♦ 7♠
      When the player deals the stock
      And the player undoes the last action
      Then the stock holds 2♣ 3♦ 7♠
      And column 1 reads 5♥
      And the legal actions are exactly deal

  @R-UNDO-UNLIMITED
  Rule: Every action can be taken back, all the way to the start

    @id:UNDO-008 @undo
    Example: Three undos take back three moves
      Given the table
        | 1    | 2   | 3  |
        | [4♠] | 10♦ | 5♣ |
        | 9♦   |     |    |
        | K♥   |     |    |
        | 4♣   |     |    |
      When the player plays 4♣ to column 3, 9♦ to column 2, K♥ to column 4
      And the player undoes the last action
      And the player undoes the last action
      And the player undoes the last action
      Then the table is as it was at the start

    @id:UNDO-009 @undo
    Example: Nothing can be undone before the first action
      Given the table
        | 1    | 2   |
        | [4♠] | 10♦ |
        | 9♦   |     |
      When the player undoes the last action
      Then the action is refused

    @id:UNDO-010 @undo
    Example: Undo stops at the start
      Given the table
        | 1    | 2   |
        | [4♠] | 10♦ |
        | 9♦   |     |
      When the player moves 9♦ to column 2
      And the player undoes the last action
      And the player undoes the last action
      Then the action is refused

    @id:UNDO-011 @undo
    Example: A refused move is not what undo takes back
      Given the table
        | 1    | 2   | 3  |
        | [4♠] | 10♦ | 5♣ |
        | 9♦   |     |    |
        | K♥   |     |    |
        | 4♣   |     |    |
      When the player moves 4♣ to column 3
      And the player moves 9♦ to column 3
      Then the action is refused as not-same-suit
      When the player undoes the last action
      Then the table is as it was at the start

    @id:UNDO-012 @undo @R-LOSS-NO-ACTION
    Example: Undo brings a lost game back into play
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7   |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | 10♣ |
        |    |    |    |    |    |    | 4♥  |
      When the player moves 4♥ to column 1
      Then the game is lost
      When the player undoes the last action
      Then the game is playing
      And 4♥ to column 1 is legal

    @id:UNDO-013 @undo
    Example: On an empty table there is nothing to undo
      Given an empty table
      And the stock has been dealt
      When the player undoes the last action
      Then the action is refused
      And the table is unchanged
