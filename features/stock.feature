Feature: The stock
  The three stock cards are dealt once, all together, one face up on each of
  columns 1, 2 and 3, on whatever those columns hold and without any suit or
  rank check. Some rule sets let the player deal at any time; others keep the
  stock locked while a move is still available.

  @R-STOCK-FIRST-THREE-COLUMNS
  Rule: Columns 1, 2 and 3 each receive one stock card

    @id:STOCK-001
    Example: The deal gives columns 1, 2 and 3 one card apiece
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7  |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | Q♥ |
      And the stock holds 2♣ 3♦ 7♠
      When the player deals the stock
      Then column 1 reads 5♥ 2♣
      And column 2 reads 9♠ 3♦
      And column 3 reads J♦ 7♠
      And column 4 reads 4♣
      And column 7 reads Q♥

    @id:STOCK-019 @R-DEAL-PARTIAL-POSITIONS @synthetic
    Example: A stock of two cards gives columns 1 and 2 one card each
      Aisleriot 3.22.23 always deals to columns 1, 2 and 3, and its deal fails on a shorter stock.
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7  |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | Q♥ |
      And the stock holds 2♣ 3♦
      When the player deals the stock
      Then column 1 reads 5♥ 2♣
      And column 2 reads 9♠ 3♦
      And column 3 reads J♦
      And the stock is empty

    @id:STOCK-020 @R-DEAL-PARTIAL-POSITIONS @synthetic
    Example: A stock of one card may be dealt, onto column 1
      Aisleriot 3.22.23 neither offers nor makes this deal: it always deals three cards.
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7  |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | Q♥ |
      And the stock holds K♣
      Then the legal actions are exactly deal
      When the player deals the stock
      Then column 1 reads 5♥ K♣
      And column 2 reads 9♠
      And the stock is empty

  @R-STOCK-ORDER
  Rule: The first card of the stock goes to column 1

    @id:STOCK-002
    Example: The stock is dealt in its own order
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7  |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | Q♥ |
      And the stock holds 7♠ 2♣ 3♦
      When the player deals the stock
      Then column 1 ends with 7♠
      And column 2 ends with 2♣
      And column 3 ends with 3♦

  @R-STOCK-ALL-AT-ONCE
  Rule: The three cards are dealt together in one go

    @id:STOCK-003
    Example: After one deal the stock is empty
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7  |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | Q♥ |
      And the stock holds 2♣ 3♦ 7♠
      When the player deals the stock
      Then the stock is empty
      And no action is legal

  @R-STOCK-NO-CHECK
  Rule: Stock cards land without any suit or rank check

    @id:STOCK-004
    Example: A King and an Ace from the stock land on ordinary cards
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7  |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | Q♥ |
      And the stock holds K♣ A♦ 10♥
      When the player deals the stock
      Then column 1 reads 5♥ K♣
      And column 2 reads 9♠ A♦
      And column 3 reads J♦ 10♥

    @id:STOCK-005
    Example: A stock card covers an ordered sequence
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7  |
        | 7♦ | 9♠ | J♦ | 4♣ | 8♣ | 2♠ | Q♥ |
        | 6♦ |    |    |    |    |    |    |
        | 5♦ |    |    |    |    |    |    |
      And the stock holds 4♠ A♥ 10♣
      When the player deals the stock
      Then column 1 reads 7♦ 6♦ 5♦ 4♠
      And column 2 reads 9♠ A♥
      And column 3 reads J♦ 10♣

    @id:STOCK-024
    Example: A King dealt onto a run that waits for its Ace is just one more card on it
      Given the table
        | 1   | 2  | 3  | 4  | 5  | 6  | 7   |
        | K♠  | 9♥ | 4♦ | J♣ | 6♦ | 2♥ | 10♦ |
        | Q♠  |    |    |    |    |    |     |
        | J♠  |    |    |    |    |    |     |
        | 10♠ |    |    |    |    |    |     |
        | 9♠  |    |    |    |    |    |     |
        | 8♠  |    |    |    |    |    |     |
        | 7♠  |    |    |    |    |    |     |
        | 6♠  |    |    |    |    |    |     |
        | 5♠  |    |    |    |    |    |     |
        | 4♠  |    |    |    |    |    |     |
        | 3♠  |    |    |    |    |    |     |
        | 2♠  |    |    |    |    |    |     |
      And the stock holds K♥ 3♣ 8♦
      When the player deals the stock
      Then column 1 ends with 3♠ 2♠ K♥
      And column 2 reads 9♥ 3♣
      And no run has been collected

  @R-STOCK-INTO-EMPTY
  Rule: Empty columns among the first three take their stock cards

    @id:STOCK-006 @empty-king
    Example: Empty first columns each receive a stock card
      Given the table
        | 4  |
        | 5♣ |
        | 9♥ |
      And the stock holds 2♣ 3♦ 7♠
      When the player deals the stock
      Then column 1 reads 2♣
      And column 2 reads 3♦
      And column 3 reads 7♠
      And column 4 reads 5♣ 9♥

    @id:STOCK-018 @stock-any-time
    Example: Under a stock dealt at any time, empty first columns take their cards
      Given the table
        | 4  |
        | 5♣ |
        | 9♥ |
      And the stock holds 2♣ 3♦ 7♠
      When the player deals the stock
      Then column 1 reads 2♣
      And column 2 reads 3♦
      And column 3 reads 7♠
      And the stock is empty

    @id:STOCK-007 @empty-king @R-EMPTY-KING-ONLY
    Example: After the deal a space still takes only a King
      Given the table
        | 4  |
        | 5♣ |
        | 9♥ |
      And the stock holds 2♣ 3♦ 7♠
      When the player deals the stock
      And the player moves 9♥ to column 5
      Then the action is refused as empty-column-needs-king

  @R-STOCK-ONCE
  Rule: The stock is dealt once and never refilled

    @id:STOCK-008
    Example: The stock cannot be dealt a second time
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7  |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | Q♥ |
      And the stock holds 2♣ 3♦ 7♠
      When the player deals the stock
      And the player deals the stock
      Then the action is refused as stock-empty

    @id:STOCK-009
    Example: A spent stock cannot be dealt
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7  |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | Q♥ |
      And the stock has been dealt
      When the player deals the stock
      Then the action is refused as stock-empty

    @id:STOCK-010
    Example: A spent stock is not offered
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7   |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | 10♣ |
        |    |    |    |    |    |    | 4♥  |
      And the stock has been dealt
      Then the legal actions are exactly 4♥ to column 1

  @R-STOCK-ANY-TIME @stock-any-time
  Rule: Where allowed, the stock may be dealt whenever it holds cards

    @id:STOCK-011
    Example: The deal is offered alongside a move
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7   |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | 10♣ |
        |    |    |    |    |    |    | 4♥  |
      And the stock holds 2♣ 3♦ 7♠
      Then the legal actions are exactly 4♥ to column 1, deal

    @id:STOCK-012
    Example: The stock may be dealt while a move remains
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7   |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | 10♣ |
        |    |    |    |    |    |    | 4♥  |
      And the stock holds 2♣ 3♦ 7♠
      When the player deals the stock
      Then column 1 reads 5♥ 2♣
      And column 7 reads 10♣ 4♥
      And the stock is empty

  @R-STOCK-WHEN-STUCK @stock-when-stuck
  Rule: Where the stock waits, it is dealt only when no move is available

    @id:STOCK-013
    Example: The deal is not offered while a move remains
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7   |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | 10♣ |
        |    |    |    |    |    |    | 4♥  |
      And the stock holds 2♣ 3♦ 7♠
      Then the legal actions are exactly 4♥ to column 1

    @id:STOCK-014
    Example: Dealing while a move remains is refused
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7   |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | 10♣ |
        |    |    |    |    |    |    | 4♥  |
      And the stock holds 2♣ 3♦ 7♠
      When the player deals the stock
      Then the action is refused as stock-locked

    @id:STOCK-015
    Example: Playing the last move unlocks the stock
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7   |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | 10♣ |
        |    |    |    |    |    |    | 4♥  |
      And the stock holds 2♣ 3♦ 7♠
      When the player moves 4♥ to column 1
      Then the legal actions are exactly deal

    @id:STOCK-016 @empty-king @runs-stay @finished-runs-ignored @R-AVAIL-FINISHED-RUN-IGNORED @R-AVAIL-ONE-TEST
    Example: Moves that only carry a finished run away do not keep the stock locked
      Given the table
        | 1   | 2  | 3  |
        | 4♣  | 9♥ | 4♦ |
        | K♠  |    |    |
        | Q♠  |    |    |
        | J♠  |    |    |
        | 10♠ |    |    |
        | 9♠  |    |    |
        | 8♠  |    |    |
        | 7♠  |    |    |
        | 6♠  |    |    |
        | 5♠  |    |    |
        | 4♠  |    |    |
        | 3♠  |    |    |
        | 2♠  |    |    |
        | A♠  |    |    |
      And the stock holds 5♣ J♦ 2♥
      Then the legal actions are exactly K♠ to column 4, K♠ to column 5, K♠ to column 6, K♠ to column 7, deal

    @id:STOCK-021 @empty-king @runs-stay @finished-runs-ignored @R-AVAIL-FINISHED-RUN-IGNORED
    Example: A finished run lying on a hidden card does not keep the stock locked either
      Given the table
        | 1    | 2  | 4  | 5  | 6  | 7  |
        | [4♣] | 9♥ | 7♦ | 3♣ | J♥ | Q♦ |
        | K♠   |    |    |    |    |    |
        | Q♠   |    |    |    |    |    |
        | J♠   |    |    |    |    |    |
        | 10♠  |    |    |    |    |    |
        | 9♠   |    |    |    |    |    |
        | 8♠   |    |    |    |    |    |
        | 7♠   |    |    |    |    |    |
        | 6♠   |    |    |    |    |    |
        | 5♠   |    |    |    |    |    |
        | 4♠   |    |    |    |    |    |
        | 3♠   |    |    |    |    |    |
        | 2♠   |    |    |    |    |    |
        | A♠   |    |    |    |    |    |
      And the stock holds 5♣ J♦ 4♥
      Then the legal actions are exactly K♠ to column 3, deal

    @id:STOCK-022 @runs-stay @finished-runs-ignored @R-AVAIL-FINISHED-RUN-IGNORED
    Example: A card lying on a finished run is an ordinary move and keeps the stock locked
      Given the table
        | 1    | 2   | 3  | 4  | 5  | 6  | 7  |
        | [4♣] | 10♣ | 2♥ | 7♦ | 3♣ | J♥ | Q♦ |
        | K♠   |     |    |    |    |    |    |
        | Q♠   |     |    |    |    |    |    |
        | J♠   |     |    |    |    |    |    |
        | 10♠  |     |    |    |    |    |    |
        | 9♠   |     |    |    |    |    |    |
        | 8♠   |     |    |    |    |    |    |
        | 7♠   |     |    |    |    |    |    |
        | 6♠   |     |    |    |    |    |    |
        | 5♠   |     |    |    |    |    |    |
        | 4♠   |     |    |    |    |    |    |
        | 3♠   |     |    |    |    |    |    |
        | 2♠   |     |    |    |    |    |    |
        | A♠   |     |    |    |    |    |    |
        | 9♣   |     |    |    |    |    |    |
      And the stock holds 5♣ J♦ 4♥
      Then the legal actions are exactly 9♣ to column 2

    @id:STOCK-023 @runs-stay @finished-runs-ignored @R-AVAIL-FINISHED-RUN-IGNORED
    Example: The upper of two cards lying on a finished run keeps the stock locked too
      Given the table
        | 1    | 2  | 3  | 4  | 5  | 6  | 7  |
        | [4♣] | 6♥ | 2♥ | 7♦ | 3♣ | J♥ | Q♦ |
        | K♠   |    |    |    |    |    |    |
        | Q♠   |    |    |    |    |    |    |
        | J♠   |    |    |    |    |    |    |
        | 10♠  |    |    |    |    |    |    |
        | 9♠   |    |    |    |    |    |    |
        | 8♠   |    |    |    |    |    |    |
        | 7♠   |    |    |    |    |    |    |
        | 6♠   |    |    |    |    |    |    |
        | 5♠   |    |    |    |    |    |    |
        | 4♠   |    |    |    |    |    |    |
        | 3♠   |    |    |    |    |    |    |
        | 2♠   |    |    |    |    |    |    |
        | A♠   |    |    |    |    |    |    |
        | 9♣   |    |    |    |    |    |    |
        | 5♥   |    |    |    |    |    |    |
      And the stock holds 5♣ J♦ 4♥
      Then the legal actions are exactly 5♥ to column 2

    @id:STOCK-027 @R-AVAIL-WHOLE-COLUMN
    Example: A King on hidden cards that can reach a space keeps the stock locked
      Given the table
        | 1    | 3  | 4  | 5  | 6  | 7   |
        | [4♣] | 2♦ | 6♦ | 8♦ | 9♠ | Q♥  |
        | K♠   |    |    |    |    |     |
      And the stock holds 5♣ J♦ 2♥
      When the player deals the stock
      Then the action is refused as stock-locked

  @R-STOCK-ONE-ACTION
  Rule: Dealing the stock is a single action

    @id:STOCK-017 @undo @R-UNDO-STOCK
    Example: One undo takes the whole deal back
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7  |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | Q♥ |
      And the stock holds 2♣ 3♦ 7♠
      When the player deals the stock
      And the player undoes the last action
      Then the table is as it was at the start
      And the stock holds 2♣ 3♦ 7♠

  @R-DEAL-SYNTHETIC-POSITIONS @synthetic
  Rule: A stock of one or two cards changes nothing else
    No game reaches these starts: a stock is dealt all at once, so it holds
    three cards or none. The rules still hold there, and a program whose
    stock always holds three cards may decline them.

    @id:STOCK-025 @undo
    Example: With two cards in the stock a move plays and is taken back as usual
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7   |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | 10♣ |
        |    |    |    |    |    |    | 4♥  |
      And the stock holds 2♣ 3♦
      When the player moves 4♥ to column 1
      Then column 1 reads 5♥ 4♥
      And the stock holds 2♣ 3♦
      When the player undoes the last action
      Then the table is as it was at the start
      And the stock holds 2♣ 3♦

    @id:STOCK-026 @R-LOSS-NO-ACTION
    Example: One card left in the stock keeps the game going
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7  |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | Q♥ |
      And the stock holds K♣
      Then the game is playing
