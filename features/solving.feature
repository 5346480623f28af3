Feature: Solver facts
  Facts about whole games that the reference solver proved and an unreduced
  search proved again: how the moment of the deal can decide a game, and the
  first PySolFC deal that can be won under classic rules. Each example plays
  out what the solver found, so any implementation can check it without a
  solver of its own.

  @R-STOCK-TIMING @runs-collect @stock-any-time @empty-king @whole-column-refused @win-four-runs
  Rule: The moment of the deal can decide the game
    Dealt at once, A♥ lands on 6♥ and 5♥ on 2♥, and each then waits for a card
    that the other covers. Once 9♥ has moved onto 10♥, A♥ lands in the emptied
    column 3 instead.

    @id:SOLVE-001
    Example: Moving 9♥ onto 10♥ before the deal wins the game
      Given the table
        | 2  | 3  | 6   | 7   |
        | 4♥ | 9♥ | K♠  | K♥  |
        | 3♥ | 8♥ | Q♠  | Q♥  |
        | 2♥ | 7♥ | J♠  | J♥  |
        |    | 6♥ | 10♠ | 10♥ |
        |    |    | 9♠  |     |
        |    |    | 8♠  |     |
        |    |    | 7♠  |     |
        |    |    | 6♠  |     |
        |    |    | 5♠  |     |
        |    |    | 4♠  |     |
        |    |    | 3♠  |     |
        |    |    | A♠  |     |
      And the stock holds 2♠ 5♥ A♥
      And the ♣ and ♦ runs have been collected
      When the player plays 9♥ to column 7, deal, 5♥ to column 7, 4♥ to column 7, A♥ to column 7
      And the player plays A♠ to column 1, 2♠ to column 6
      Then the game is won

    @id:SOLVE-002
    Scenario Outline: Dealing at once loses the same game whatever follows: <line>
      Given the table
        | 2  | 3  | 6   | 7   |
        | 4♥ | 9♥ | K♠  | K♥  |
        | 3♥ | 8♥ | Q♠  | Q♥  |
        | 2♥ | 7♥ | J♠  | J♥  |
        |    | 6♥ | 10♠ | 10♥ |
        |    |    | 9♠  |     |
        |    |    | 8♠  |     |
        |    |    | 7♠  |     |
        |    |    | 6♠  |     |
        |    |    | 5♠  |     |
        |    |    | 4♠  |     |
        |    |    | 3♠  |     |
        |    |    | A♠  |     |
      And the stock holds 2♠ 5♥ A♥
      And the ♣ and ♦ runs have been collected
      When the player deals the stock
      Then the legal actions are exactly 9♥ to column 7, A♠ to column 1
      When the player plays <line>
      Then the game is lost

      Examples:
        | line                                             |
        | 9♥ to column 7, A♠ to column 1, 2♠ to column 6   |
        | A♠ to column 1, 2♠ to column 6, 9♥ to column 7   |
        | A♠ to column 1, 9♥ to column 7, 2♠ to column 6   |

  @R-WIN-STAY-FOUR-RUNS @R-STOCK-WHEN-STUCK @runs-stay @stock-when-stuck @empty-king @whole-column-refused @win-four-runs @finished-runs-ignored
  Rule: PySolFC game 5 is the first deal that can be won under classic rules
    Games 1 to 4 are lost under classic rules, whatever the player does; the
    search that proved it tried every position reachable from each of them.

    @id:SOLVE-003
    Example: PySolFC game 5 is won under classic rules in 52 actions
      Given the table
        | 1    | 2    | 3    | 4    | 5  | 6  | 7   |
        | [A♥] | [8♠] | [2♦] | [Q♠] | 4♣ | 9♥ | 2♠  |
        | [3♦] | [5♣] | [A♠] | [9♣] | K♥ | 4♦ | 2♣  |
        | [3♣] | [4♠] | [3♠] | [5♦] | K♣ | 3♥ | K♦  |
        | 5♥   | 6♠   | 8♦   | 10♦  | 7♠ | J♦ | 7♥  |
        | 8♥   | J♥   | J♣   | 7♦   | 5♠ | Q♥ | 8♣  |
        | 9♦   | K♠   | Q♦   | 4♥   | A♣ | 2♥ | 10♣ |
        | 10♥  | 6♦   | 6♥   | 6♣   | Q♣ | J♠ | 9♠  |
      And the stock holds A♦ 7♣ 10♠
      When the player plays 5♥ to column 3, J♣ to column 5, 7♦ to column 3, 9♦ to column 4, 9♥ to column 4, 2♣ to column 1, 7♥ to column 5, Q♦ to column 1, 10♣ to column 5
      And the player plays K♠ to column 6, 10♥ to column 2, 8♦ to column 4, 2♠ to column 3, K♣ to column 7, Q♥ to column 5, 10♦ to column 2, 4♦ to column 4, 8♥ to column 2
      And the player plays 4♥ to column 1, 6♦ to column 4, deal, 6♣ to column 2, 10♠ to column 5, 3♥ to column 1, 5♦ to column 1, 8♣ to column 4, 6♥ to column 2
      And the player plays J♦ to column 1, 2♥ to column 2, J♥ to column 5, 5♠ to column 2, 6♠ to column 7, 3♠ to column 2, A♠ to column 2, A♦ to column 3, 9♠ to column 5
      And the player plays 9♣ to column 7, Q♠ to column 6, J♠ to column 6, K♦ to column 4, A♣ to column 1, 4♠ to column 7, 5♣ to column 1, 8♠ to column 6, 4♣ to column 1
      And the player plays 7♠ to column 6, Q♣ to column 7, K♥ to column 2, 3♣ to column 7, 3♦ to column 4, A♥ to column 2, 2♦ to column 4
      Then the game is won
