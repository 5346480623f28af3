Feature: Winning and losing
  Where runs are collected the game is won with the fourth suit collected.
  Where they stay, it is won with four runs on the table, or, under the
  one-run-per-column rule, with every column empty or holding exactly one run.
  A game is lost when the stock is spent and no available move remains; a
  move that only shifts a whole column into a space never counts as
  available, and under some rules neither does moving a finished run.

  @R-WIN-COLLECT-FOUR @runs-collect
  Rule: Collecting the fourth suit wins

    @id:WIN-001
    Example: Collecting the last suit wins the game
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
      Then the game is won
      And the ♠ run has been collected

    @id:WIN-002
    Example: Three collected suits are not yet a win
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
      Then the game is playing

    @id:WIN-003 @R-COLLECT-EVERY-COLUMN
    Example: Two runs collected by one move finish the game
      Given the table
        | 1   | 2   |
        | K♠  | K♥  |
        | Q♠  | Q♥  |
        | J♠  | J♥  |
        | 10♠ | 10♥ |
        | 9♠  | 9♥  |
        | 8♠  | 8♥  |
        | 7♠  | 7♥  |
        | 6♠  | 6♥  |
        | 5♠  | 5♥  |
        | 4♠  | 4♥  |
        | 3♠  | 3♥  |
        | 2♠  | 2♥  |
        |     | A♥  |
        |     | A♠  |
      And the ♣ and ♦ runs have been collected
      When the player moves A♠ to column 1
      Then the game is won
      And the ♥ run has been collected

    @id:WIN-004 @R-LOSS-NO-ACTION
    Example: A won game with nothing left to play is not lost
      Given an empty table
      And the ♣ and ♦ runs have been collected
      And the ♥ and ♠ runs have been collected
      Then the game is won
      And no action is legal

  @R-WIN-STAY-FOUR-RUNS @runs-stay @win-four-runs
  Rule: Where runs stay, four complete runs on the table win

    @id:WIN-005
    Example: Finishing the fourth run on the table wins
      Given the table
        | 1   | 2   | 3   | 4   | 5  |
        | K♣  | K♦  | K♥  | K♠  | A♠ |
        | Q♣  | Q♦  | Q♥  | Q♠  |    |
        | J♣  | J♦  | J♥  | J♠  |    |
        | 10♣ | 10♦ | 10♥ | 10♠ |    |
        | 9♣  | 9♦  | 9♥  | 9♠  |    |
        | 8♣  | 8♦  | 8♥  | 8♠  |    |
        | 7♣  | 7♦  | 7♥  | 7♠  |    |
        | 6♣  | 6♦  | 6♥  | 6♠  |    |
        | 5♣  | 5♦  | 5♥  | 5♠  |    |
        | 4♣  | 4♦  | 4♥  | 4♠  |    |
        | 3♣  | 3♦  | 3♥  | 3♠  |    |
        | 2♣  | 2♦  | 2♥  | 2♠  |    |
        | A♣  | A♦  | A♥  |     |    |
      When the player moves A♠ to column 4
      Then the game is won
      And no run has been collected

    @id:WIN-006
    Example: Three finished runs on the table are not yet a win
      Given the table
        | 1   | 2   | 3   | 4   | 5  |
        | K♣  | K♦  | K♥  | K♠  | A♠ |
        | Q♣  | Q♦  | Q♥  | Q♠  |    |
        | J♣  | J♦  | J♥  | J♠  |    |
        | 10♣ | 10♦ | 10♥ | 10♠ |    |
        | 9♣  | 9♦  | 9♥  | 9♠  |    |
        | 8♣  | 8♦  | 8♥  | 8♠  |    |
        | 7♣  | 7♦  | 7♥  | 7♠  |    |
        | 6♣  | 6♦  | 6♥  | 6♠  |    |
        | 5♣  | 5♦  | 5♥  | 5♠  |    |
        | 4♣  | 4♦  | 4♥  | 4♠  |    |
        | 3♣  | 3♦  | 3♥  | 3♠  |    |
        | 2♣  | 2♦  | 2♥  | 2♠  |    |
        | A♣  | A♦  | A♥  |     |    |
      Then the game is playing

    @id:WIN-007 @R-STAY-RUN-DEFINITION
    Example: Two runs sharing one column both count toward the win
      Given the table
        | 1   | 2   | 3   |
        | K♠  | K♣  | K♦  |
        | Q♠  | Q♣  | Q♦  |
        | J♠  | J♣  | J♦  |
        | 10♠ | 10♣ | 10♦ |
        | 9♠  | 9♣  | 9♦  |
        | 8♠  | 8♣  | 8♦  |
        | 7♠  | 7♣  | 7♦  |
        | 6♠  | 6♣  | 6♦  |
        | 5♠  | 5♣  | 5♦  |
        | 4♠  | 4♣  | 4♦  |
        | 3♠  | 3♣  | 3♦  |
        | 2♠  | 2♣  | 2♦  |
        | A♠  | A♣  | A♦  |
        | K♥  |     |     |
        | Q♥  |     |     |
        | J♥  |     |     |
        | 10♥ |     |     |
        | 9♥  |     |     |
        | 8♥  |     |     |
        | 7♥  |     |     |
        | 6♥  |     |     |
        | 5♥  |     |     |
        | 4♥  |     |     |
        | 3♥  |     |     |
        | 2♥  |     |     |
        | A♥  |     |     |
      Then the game is won

  @R-WIN-ONE-RUN-PER-COLUMN @runs-stay @win-one-run-per-column
  Rule: Under the one-run-per-column rule every column must be empty or one run

    @id:WIN-008 @finished-runs-counted @R-AVAIL-FINISHED-RUN-COUNTED
    Example: Four runs with two stacked in one column are not yet a win
      Given the table
        | 1   | 2   | 3   |
        | K♠  | K♣  | K♦  |
        | Q♠  | Q♣  | Q♦  |
        | J♠  | J♣  | J♦  |
        | 10♠ | 10♣ | 10♦ |
        | 9♠  | 9♣  | 9♦  |
        | 8♠  | 8♣  | 8♦  |
        | 7♠  | 7♣  | 7♦  |
        | 6♠  | 6♣  | 6♦  |
        | 5♠  | 5♣  | 5♦  |
        | 4♠  | 4♣  | 4♦  |
        | 3♠  | 3♣  | 3♦  |
        | 2♠  | 2♣  | 2♦  |
        | A♠  | A♣  | A♦  |
        | K♥  |     |     |
        | Q♥  |     |     |
        | J♥  |     |     |
        | 10♥ |     |     |
        | 9♥  |     |     |
        | 8♥  |     |     |
        | 7♥  |     |     |
        | 6♥  |     |     |
        | 5♥  |     |     |
        | 4♥  |     |     |
        | 3♥  |     |     |
        | 2♥  |     |     |
        | A♥  |     |     |
      Then the game is playing
      And K♥ to column 4 is legal

    @id:WIN-009
    Example: Moving the upper run into a space wins
      Given the table
        | 1   | 2   | 3   |
        | K♠  | K♣  | K♦  |
        | Q♠  | Q♣  | Q♦  |
        | J♠  | J♣  | J♦  |
        | 10♠ | 10♣ | 10♦ |
        | 9♠  | 9♣  | 9♦  |
        | 8♠  | 8♣  | 8♦  |
        | 7♠  | 7♣  | 7♦  |
        | 6♠  | 6♣  | 6♦  |
        | 5♠  | 5♣  | 5♦  |
        | 4♠  | 4♣  | 4♦  |
        | 3♠  | 3♣  | 3♦  |
        | 2♠  | 2♣  | 2♦  |
        | A♠  | A♣  | A♦  |
        | K♥  |     |     |
        | Q♥  |     |     |
        | J♥  |     |     |
        | 10♥ |     |     |
        | 9♥  |     |     |
        | 8♥  |     |     |
        | 7♥  |     |     |
        | 6♥  |     |     |
        | 5♥  |     |     |
        | 4♥  |     |     |
        | 3♥  |     |     |
        | 2♥  |     |     |
        | A♥  |     |     |
      When the player moves K♥ to column 4
      Then the game is won
      And column 1 reads K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ A♠
      And column 4 reads K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ A♥

    @id:WIN-010
    Example: Four runs each alone in a column win
      Given the table
        | 1   | 2   | 3   | 4   |
        | K♠  | K♥  | K♣  | K♦  |
        | Q♠  | Q♥  | Q♣  | Q♦  |
        | J♠  | J♥  | J♣  | J♦  |
        | 10♠ | 10♥ | 10♣ | 10♦ |
        | 9♠  | 9♥  | 9♣  | 9♦  |
        | 8♠  | 8♥  | 8♣  | 8♦  |
        | 7♠  | 7♥  | 7♣  | 7♦  |
        | 6♠  | 6♥  | 6♣  | 6♦  |
        | 5♠  | 5♥  | 5♣  | 5♦  |
        | 4♠  | 4♥  | 4♣  | 4♦  |
        | 3♠  | 3♥  | 3♣  | 3♦  |
        | 2♠  | 2♥  | 2♣  | 2♦  |
        | A♠  | A♥  | A♣  | A♦  |
      Then the game is won

    @id:WIN-025
    Example: A lone run does not win while the stock still holds cards
      soliterm 1.2.0 calls this table won: its Scorpion.is_won looks at the columns only.
      Given the table
        | 1   |
        | K♠  |
        | Q♠  |
        | J♠  |
        | 10♠ |
        | 9♠  |
        | 8♠  |
        | 7♠  |
        | 6♠  |
        | 5♠  |
        | 4♠  |
        | 3♠  |
        | 2♠  |
        | A♠  |
      And the stock holds 2♣ 3♦ 7♥
      Then the game is playing

    @id:WIN-026 @empty-king
    Example: A run with a card lying on its Ace does not finish its column
      Given the table
        | 1   | 2   |
        | K♠  | K♦  |
        | Q♠  | Q♦  |
        | J♠  | J♦  |
        | 10♠ | 10♦ |
        | 9♠  | 9♦  |
        | 8♠  | 8♦  |
        | 7♠  | 7♦  |
        | 6♠  | 6♦  |
        | 5♠  | 5♦  |
        | 4♠  | 4♦  |
        | 3♠  | 3♦  |
        | 2♠  | 2♦  |
        | A♠  | A♦  |
        |     | 5♥  |
      Then the game is lost

    @id:WIN-027 @empty-king
    Example: Thirteen cards of one suit out of order do not finish a column
      Given the table
        | 1   |
        | K♠  |
        | Q♠  |
        | J♠  |
        | 10♠ |
        | 9♠  |
        | 8♠  |
        | 7♠  |
        | 6♠  |
        | 5♠  |
        | 4♠  |
        | 3♠  |
        | A♠  |
        | 2♠  |
      Then the game is lost

    @id:WIN-028
    Example: A table with no card at all is won
      Given an empty table
      And the stock has been dealt
      Then the game is won

  @R-WIN-NO-AUTOPLAY
  Rule: The game never makes a move for the player

    @id:WIN-011
    Example: The last easy moves are left to the player
      Given the table
        | 1   | 2  | 3  |
        | K♠  | 2♠ | A♠ |
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
      When the player moves 2♠ to column 1
      Then column 1 ends with 3♠ 2♠
      And column 2 is empty
      And column 3 reads A♠
      And the game is playing

  @R-AVAIL-WHOLE-COLUMN
  Rule: Shifting a whole column into a space never counts as an available move

    @id:WIN-012
    Example: A game whose only transfers are whole columns is lost
      Given the table
        | 1  | 2  | 3  |
        | K♠ | 5♦ | 9♣ |
      Then the game is lost

    @id:WIN-013 @empty-king @whole-column-allowed @R-EMPTY-WHOLE-COLUMN-ALLOWED
    Example: A lost game still lists the whole-column transfers it allows
      Given the table
        | 1  | 2  | 3  |
        | K♠ | 5♦ | 9♣ |
      Then the legal actions are exactly K♠ to column 4, K♠ to column 5, K♠ to column 6, K♠ to column 7
      And the game is lost

    @id:WIN-014 @whole-column-refused
    Example: Where whole-column transfers are refused nothing is listed
      Given the table
        | 1  | 2  | 3  |
        | K♠ | 5♦ | 9♣ |
      Then no action is legal

    @id:WIN-015 @R-AVAIL-ONE-TEST
    Example: A whole-column transfer does not hold back the stock
      Given the table
        | 1  | 2  | 3  |
        | K♠ | 5♦ | 9♣ |
      And the stock holds 2♣ 3♦ 7♠
      Then deal is legal
      And the game is playing

    @id:WIN-033
    Example: A King on hidden cards that can reach a space keeps the game going
      Given the table
        | 1    | 3  | 4  | 5  | 6  | 7  |
        | [4♣] | 2♦ | 6♦ | 8♦ | 9♠ | Q♥ |
        | K♠   |    |    |    |    |    |
      Then the game is playing

  @R-AVAIL-FINISHED-RUN-IGNORED @runs-stay @finished-runs-ignored
  Rule: Where finished runs are ignored, moving one is no available move

    @id:WIN-016
    Example: Carrying a finished run into a space does not keep the game going
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
      Then K♠ to column 4 is legal
      And the game is lost

  @R-AVAIL-FINISHED-RUN-COUNTED @runs-stay @finished-runs-counted
  Rule: Where finished runs are counted, moving one is a real move

    @id:WIN-017 @empty-king
    Example: Carrying a finished run into a space keeps the game going
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
      Then the legal actions are exactly K♠ to column 4, K♠ to column 5, K♠ to column 6, K♠ to column 7
      And the game is playing

  @R-AVAIL-ONE-TEST
  Rule: The same moves that keep the stock locked keep the game alive

    @id:WIN-018 @empty-king @runs-stay @finished-runs-ignored @stock-when-stuck
    Example: Once the unlocked stock is spent the game is lost
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
      When the player deals the stock
      Then the game is lost

    @id:WIN-024
    Example: With no move left the deal is the only action
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7  |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | Q♥ |
      And the stock holds 2♣ 3♦ 7♠
      Then the legal actions are exactly deal

  @R-LOSS-NO-ACTION
  Rule: With the stock spent and no available move the game is lost

    @id:WIN-019
    Example: No move and no stock lose the game
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7  |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | Q♥ |
      Then the game is lost
      And no action is legal

    @id:WIN-020
    Example: Cards left in the stock keep the game alive
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7  |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | Q♥ |
      And the stock holds 2♣ 3♦ 7♠
      Then the game is playing

    @id:WIN-029 @win-four-runs
    Example: A table with no card at all is lost where four runs are needed
      Given an empty table
      And the stock has been dealt
      Then the game is lost

    @id:WIN-030 @runs-stay @empty-king @R-STAY-RUN-DEFINITION
    Example: Two suits that swapped their tens are not runs
      A program that counted ranks alone would call these four columns four runs, and the game won.
      Given the table
        | 1   | 2   | 3   | 4   |
        | K♣  | K♦  | K♥  | K♠  |
        | Q♣  | Q♦  | Q♥  | Q♠  |
        | J♣  | J♦  | J♥  | J♠  |
        | 10♣ | 10♦ | 10♠ | 10♥ |
        | 9♣  | 9♦  | 9♥  | 9♠  |
        | 8♣  | 8♦  | 8♥  | 8♠  |
        | 7♣  | 7♦  | 7♥  | 7♠  |
        | 6♣  | 6♦  | 6♥  | 6♠  |
        | 5♣  | 5♦  | 5♥  | 5♠  |
        | 4♣  | 4♦  | 4♥  | 4♠  |
        | 3♣  | 3♦  | 3♥  | 3♠  |
        | 2♣  | 2♦  | 2♥  | 2♠  |
        | A♣  | A♦  | A♥  | A♠  |
      Then the game is lost

    @id:WIN-031 @runs-stay @empty-king @R-STAY-RUN-DEFINITION
    Example: Thirteen spades with two ranks swapped are not a run
      A program that counted a suit alone would call the fourth column a run, and the game won.
      Given the table
        | 1   | 2   | 3   | 4   |
        | K♥  | K♣  | K♦  | K♠  |
        | Q♥  | Q♣  | Q♦  | Q♠  |
        | J♥  | J♣  | J♦  | J♠  |
        | 10♥ | 10♣ | 10♦ | 9♠  |
        | 9♥  | 9♣  | 9♦  | 10♠ |
        | 8♥  | 8♣  | 8♦  | 8♠  |
        | 7♥  | 7♣  | 7♦  | 7♠  |
        | 6♥  | 6♣  | 6♦  | 6♠  |
        | 5♥  | 5♣  | 5♦  | 5♠  |
        | 4♥  | 4♣  | 4♦  | 4♠  |
        | 3♥  | 3♣  | 3♦  | 3♠  |
        | 2♥  | 2♣  | 2♦  | 2♠  |
        | A♥  | A♣  | A♦  | A♠  |
      Then the game is lost

    @id:WIN-032 @runs-stay @empty-king @R-STAY-RUN-DEFINITION
    Example: Thirteen spades led by the Queen, with the King on top, are not a run
      The King on top can still move to a space; a program that counted a suit alone would call the game won.
      Given the table
        | 1   | 2   | 3   | 4   |
        | K♥  | K♣  | K♦  | Q♠  |
        | Q♥  | Q♣  | Q♦  | J♠  |
        | J♥  | J♣  | J♦  | 10♠ |
        | 10♥ | 10♣ | 10♦ | 9♠  |
        | 9♥  | 9♣  | 9♦  | 8♠  |
        | 8♥  | 8♣  | 8♦  | 7♠  |
        | 7♥  | 7♣  | 7♦  | 6♠  |
        | 6♥  | 6♣  | 6♦  | 5♠  |
        | 5♥  | 5♣  | 5♦  | 4♠  |
        | 4♥  | 4♣  | 4♦  | 3♠  |
        | 3♥  | 3♣  | 3♦  | 2♠  |
        | 2♥  | 2♣  | 2♦  | A♠  |
        | A♥  | A♣  | A♦  | K♠  |
      Then the game is playing

  @R-LOSS-STOCK-EMPTY
  Rule: An empty stock alone does not end the game

    @id:WIN-021
    Example: Play goes on after the stock is used
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7   |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | 10♣ |
        |    |    |    |    |    |    | 4♥  |
      And the stock has been dealt
      Then the game is playing

    @id:WIN-022
    Example: Spending the last move after the deal loses the game
      Given the table
        | 1  | 2  | 3  | 4  | 5  | 6  | 7   |
        | 5♥ | 9♠ | J♦ | 4♣ | 8♦ | 2♠ | 10♣ |
        |    |    |    |    |    |    | 4♥  |
      And the stock has been dealt
      When the player moves 4♥ to column 1
      Then the game is lost

  @R-LOSS-NO-LOOKAHEAD
  Rule: Only the current position decides whether the game is lost

    @id:WIN-023
    Example: A game with no win in sight is in play while a move remains
      Given the table
        | 1    | 2  | 3   |
        | [8♠] | 9♥ | 10♥ |
        | 6♠   |    |     |
        | 7♠   |    |     |
      Then the game is playing

  @R-STATUS-PLAY-ON
  Rule: A won game still takes every legal action
    The status says where a game stands; it limits nothing. Where runs are
    collected a won game has no card left, so these tables are for runs that
    stay.

    @id:WIN-034 @runs-stay @win-four-runs
    Example: After four runs are done, a run lying on another still moves to a space
      Given the table
        | 1   | 2   |
        | K♠  | K♣  |
        | Q♠  | Q♣  |
        | J♠  | J♣  |
        | 10♠ | 10♣ |
        | 9♠  | 9♣  |
        | 8♠  | 8♣  |
        | 7♠  | 7♣  |
        | 6♠  | 6♣  |
        | 5♠  | 5♣  |
        | 4♠  | 4♣  |
        | 3♠  | 3♣  |
        | 2♠  | 2♣  |
        | A♠  | A♣  |
        | K♥  | K♦  |
        | Q♥  | Q♦  |
        | J♥  | J♦  |
        | 10♥ | 10♦ |
        | 9♥  | 9♦  |
        | 8♥  | 8♦  |
        | 7♥  | 7♦  |
        | 6♥  | 6♦  |
        | 5♥  | 5♦  |
        | 4♥  | 4♦  |
        | 3♥  | 3♦  |
        | 2♥  | 2♦  |
        | A♥  | A♦  |
      Then the game is won
      When the player moves K♥ to column 3
      Then column 3 reads K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ A♥
      And the game is won

    @id:WIN-035 @runs-stay @win-four-runs @empty-king @whole-column-refused
    Example: A won game still lists its legal moves
      Given the table
        | 1   | 2   |
        | K♠  | K♣  |
        | Q♠  | Q♣  |
        | J♠  | J♣  |
        | 10♠ | 10♣ |
        | 9♠  | 9♣  |
        | 8♠  | 8♣  |
        | 7♠  | 7♣  |
        | 6♠  | 6♣  |
        | 5♠  | 5♣  |
        | 4♠  | 4♣  |
        | 3♠  | 3♣  |
        | 2♠  | 2♣  |
        | A♠  | A♣  |
        | K♥  | K♦  |
        | Q♥  | Q♦  |
        | J♥  | J♦  |
        | 10♥ | 10♦ |
        | 9♥  | 9♦  |
        | 8♥  | 8♦  |
        | 7♥  | 7♦  |
        | 6♥  | 6♦  |
        | 5♥  | 5♦  |
        | 4♥  | 4♦  |
        | 3♥  | 3♦  |
        | 2♥  | 2♦  |
        | A♥  | A♦  |
      Then the legal actions are exactly K♥ to column 3, K♥ to column 4, K♥ to column 5, K♥ to column 6, K♥ to column 7, K♦ to column 3, K♦ to column 4, K♦ to column 5, K♦ to column 6, K♦ to column 7

    @id:WIN-036 @runs-stay @whole-column-allowed
    Example: Where whole columns may move, a run alone in its column changes places after the win
      Given the table
        | 1   | 2   | 3   | 4   |
        | K♠  | K♥  | K♣  | K♦  |
        | Q♠  | Q♥  | Q♣  | Q♦  |
        | J♠  | J♥  | J♣  | J♦  |
        | 10♠ | 10♥ | 10♣ | 10♦ |
        | 9♠  | 9♥  | 9♣  | 9♦  |
        | 8♠  | 8♥  | 8♣  | 8♦  |
        | 7♠  | 7♥  | 7♣  | 7♦  |
        | 6♠  | 6♥  | 6♣  | 6♦  |
        | 5♠  | 5♥  | 5♣  | 5♦  |
        | 4♠  | 4♥  | 4♣  | 4♦  |
        | 3♠  | 3♥  | 3♣  | 3♦  |
        | 2♠  | 2♥  | 2♣  | 2♦  |
        | A♠  | A♥  | A♣  | A♦  |
      Then the game is won
      When the player moves K♠ to column 5
      Then column 1 is empty
      And column 5 reads K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ A♠
      And the game is won

    @id:WIN-037 @runs-stay @whole-column-allowed @empty-king
    Example: A won game of four lone runs lists the moves of their Kings to the spaces
      Given the table
        | 1   | 2   | 3   | 4   |
        | K♠  | K♥  | K♣  | K♦  |
        | Q♠  | Q♥  | Q♣  | Q♦  |
        | J♠  | J♥  | J♣  | J♦  |
        | 10♠ | 10♥ | 10♣ | 10♦ |
        | 9♠  | 9♥  | 9♣  | 9♦  |
        | 8♠  | 8♥  | 8♣  | 8♦  |
        | 7♠  | 7♥  | 7♣  | 7♦  |
        | 6♠  | 6♥  | 6♣  | 6♦  |
        | 5♠  | 5♥  | 5♣  | 5♦  |
        | 4♠  | 4♥  | 4♣  | 4♦  |
        | 3♠  | 3♥  | 3♣  | 3♦  |
        | 2♠  | 2♥  | 2♣  | 2♦  |
        | A♠  | A♥  | A♣  | A♦  |
      Then the legal actions are exactly K♠ to column 5, K♠ to column 6, K♠ to column 7, K♥ to column 5, K♥ to column 6, K♥ to column 7, K♣ to column 5, K♣ to column 6, K♣ to column 7, K♦ to column 5, K♦ to column 6, K♦ to column 7

    @id:WIN-038 @runs-stay @R-STOCK-ONCE
    Example: A won game has no stock left to deal
      Given the table
        | 1   | 2   | 3   | 4   |
        | K♠  | K♥  | K♣  | K♦  |
        | Q♠  | Q♥  | Q♣  | Q♦  |
        | J♠  | J♥  | J♣  | J♦  |
        | 10♠ | 10♥ | 10♣ | 10♦ |
        | 9♠  | 9♥  | 9♣  | 9♦  |
        | 8♠  | 8♥  | 8♣  | 8♦  |
        | 7♠  | 7♥  | 7♣  | 7♦  |
        | 6♠  | 6♥  | 6♣  | 6♦  |
        | 5♠  | 5♥  | 5♣  | 5♦  |
        | 4♠  | 4♥  | 4♣  | 4♦  |
        | 3♠  | 3♥  | 3♣  | 3♦  |
        | 2♠  | 2♥  | 2♣  | 2♦  |
        | A♠  | A♥  | A♣  | A♦  |
      Then the game is won
      When the player deals the stock
      Then the action is refused as stock-empty
      And the game is won

    @id:WIN-039 @runs-stay @undo @R-UNDO-UNLIMITED
    Example: Undoing the move that finished the last run takes the win back
      Given the table
        | 1   | 2   | 3   | 4   | 5  |
        | K♠  | K♥  | K♣  | K♦  | 7♦ |
        | Q♠  | Q♥  | Q♣  | Q♦  | 6♦ |
        | J♠  | J♥  | J♣  | J♦  | 5♦ |
        | 10♠ | 10♥ | 10♣ | 10♦ | 4♦ |
        | 9♠  | 9♥  | 9♣  | 9♦  | 3♦ |
        | 8♠  | 8♥  | 8♣  | 8♦  | 2♦ |
        | 7♠  | 7♥  | 7♣  |     | A♦ |
        | 6♠  | 6♥  | 6♣  |     |    |
        | 5♠  | 5♥  | 5♣  |     |    |
        | 4♠  | 4♥  | 4♣  |     |    |
        | 3♠  | 3♥  | 3♣  |     |    |
        | 2♠  | 2♥  | 2♣  |     |    |
        | A♠  | A♥  | A♣  |     |    |
      Then the game is playing
      When the player moves 7♦ to column 4
      Then the game is won
      When the player undoes the last action
      Then the game is playing
      And the table is as it was at the start
