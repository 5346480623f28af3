Feature: Collecting finished runs
  Where finished runs are collected, a column that ends in thirteen face-up
  cards running King to Ace in a single suit loses them at once, inside the
  action that completed them. Every column is checked after every action, and
  a hidden card left on top afterwards turns face up.

  @R-COLLECT-AUTOMATIC @runs-collect
  Rule: A finished run that ends its column leaves the table

    @id:COLLECT-001
    Example: Placing the Ace on its two collects the run
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
      Then column 1 is empty
      And the ♠ run has been collected
      And column 2 reads 9♥

    @id:COLLECT-002 @R-COLLECT-THEN-FLIP
    Example: A group that finishes a run takes it off the table
      Given the table
        | 1   | 2    |
        | K♦  | [5♣] |
        | Q♦  | 7♦   |
        | J♦  | 6♦   |
        | 10♦ | 5♦   |
        | 9♦  | 4♦   |
        | 8♦  | 3♦   |
        |     | 2♦   |
        |     | A♦   |
      When the player moves 7♦ to column 1
      Then column 1 is empty
      And column 2 reads 5♣
      And the ♦ run has been collected

  @R-COLLECT-SUIT-RECORDED @runs-collect
  Rule: A collected run is recorded by its suit

    @id:COLLECT-003
    Example: A newly collected suit joins the suits collected before
      Given the table
        | 1   | 2  |
        | K♠  | 9♦ |
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
      And the ♥ run has been collected
      When the player moves A♠ to column 1
      Then the ♠ run has been collected
      And the ♥ run has been collected
      And the ♣ run has not been collected
      And the ♦ run has not been collected

  @R-COLLECT-NO-MANUAL @runs-collect
  Rule: Cards leave the table only by being collected as a run

    @id:COLLECT-004
    Example: No action sends a card to the collected runs by hand
      Given the table
        | 1   | 2  | 3  | 4  | 5  | 6  | 7  |
        | K♠  | 5♥ | 9♣ | J♦ | 3♥ | 7♣ | Q♥ |
        | Q♠  | A♠ |    |    |    |    |    |
        | J♠  |    |    |    |    |    |    |
        | 10♠ |    |    |    |    |    |    |
        | 9♠  |    |    |    |    |    |    |
        | 8♠  |    |    |    |    |    |    |
        | 7♠  |    |    |    |    |    |    |
        | 6♠  |    |    |    |    |    |    |
        | 5♠  |    |    |    |    |    |    |
        | 4♠  |    |    |    |    |    |    |
        | 3♠  |    |    |    |    |    |    |
        | 2♠  |    |    |    |    |    |    |
      Then the legal actions are exactly A♠ to column 1

  @R-COLLECT-ALL-FACE-UP @runs-collect
  Rule: A run with a hidden card among its thirteen is not collected

    @id:COLLECT-005
    Example: A hidden King under the sequence keeps it on the table
      Given the table
        | 1    | 2  |
        | [K♠] | A♠ |
        | Q♠   |    |
        | J♠   |    |
        | 10♠  |    |
        | 9♠   |    |
        | 8♠   |    |
        | 7♠   |    |
        | 6♠   |    |
        | 5♠   |    |
        | 4♠   |    |
        | 3♠   |    |
        | 2♠   |    |
      When the player moves A♠ to column 1
      Then column 1 reads [K♠] Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ A♠
      And no run has been collected

  @R-COLLECT-EXACT-RUN @runs-collect
  Rule: Only thirteen cards of one suit in order from King to Ace are collected

    @id:COLLECT-006
    Example: A card of another suit inside the sequence blocks collection
      Given the table
        | 1   | 2  |
        | K♠  | A♠ |
        | Q♠  |    |
        | J♠  |    |
        | 10♠ |    |
        | 9♠  |    |
        | 8♥  |    |
        | 7♠  |    |
        | 6♠  |    |
        | 5♠  |    |
        | 4♠  |    |
        | 3♠  |    |
        | 2♠  |    |
      When the player moves A♠ to column 1
      Then column 1 ends with 9♠ 8♥ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ A♠
      And no run has been collected

    @id:COLLECT-007
    Example: A missing rank blocks collection
      Given the table
        | 1   | 2  |
        | 4♦  | A♠ |
        | K♠  |    |
        | Q♠  |    |
        | J♠  |    |
        | 10♠ |    |
        | 9♠  |    |
        | 7♠  |    |
        | 6♠  |    |
        | 5♠  |    |
        | 4♠  |    |
        | 3♠  |    |
        | 2♠  |    |
      When the player moves A♠ to column 1
      Then column 1 reads 4♦ K♠ Q♠ J♠ 10♠ 9♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ A♠
      And no run has been collected

    @id:COLLECT-008
    Example: Thirteen spades out of order are no run
      Given the table
        | 1   | 2  |
        | K♠  | A♠ |
        | Q♠  |    |
        | J♠  |    |
        | 10♠ |    |
        | 9♠  |    |
        | 8♠  |    |
        | 6♠  |    |
        | 7♠  |    |
        | 5♠  |    |
        | 4♠  |    |
        | 3♠  |    |
        | 2♠  |    |
      When the player moves A♠ to column 1
      Then column 1 ends with 8♠ 6♠ 7♠ 5♠ 4♠ 3♠ 2♠ A♠
      And no run has been collected

  @R-COLLECT-COVERED-RUN @runs-collect
  Rule: A run stays while any card lies on its Ace

    @id:COLLECT-009
    Example: A passenger above the Ace keeps the run on the table
      Given the table
        | 1   | 2    | 3  |
        | K♠  | [8♣] | 6♦ |
        | Q♠  | A♠   |    |
        | J♠  | 5♦   |    |
        | 10♠ |      |    |
        | 9♠  |      |    |
        | 8♠  |      |    |
        | 7♠  |      |    |
        | 6♠  |      |    |
        | 5♠  |      |    |
        | 4♠  |      |    |
        | 3♠  |      |    |
        | 2♠  |      |    |
      When the player moves A♠ to column 1
      Then column 1 ends with 3♠ 2♠ A♠ 5♦
      And column 2 reads 8♣
      And no run has been collected

    @id:COLLECT-010
    Example: The run leaves once the passenger has moved off it
      Given the table
        | 1   | 2    | 3  |
        | K♠  | [8♣] | 6♦ |
        | Q♠  | A♠   |    |
        | J♠  | 5♦   |    |
        | 10♠ |      |    |
        | 9♠  |      |    |
        | 8♠  |      |    |
        | 7♠  |      |    |
        | 6♠  |      |    |
        | 5♠  |      |    |
        | 4♠  |      |    |
        | 3♠  |      |    |
        | 2♠  |      |    |
      When the player plays A♠ to column 1, 5♦ to column 3
      Then column 1 is empty
      And column 3 reads 6♦ 5♦
      And the ♠ run has been collected

    @id:COLLECT-016 @R-LOSS-NO-ACTION
    Example: A covered run carried off a hidden card into a space is a real move
      Given the table
        | 1    | 2 |
        | [4♣] |   |
        | K♠   |   |
        | Q♠   |   |
        | J♠   |   |
        | 10♠  |   |
        | 9♠   |   |
        | 8♠   |   |
        | 7♠   |   |
        | 6♠   |   |
        | 5♠   |   |
        | 4♠   |   |
        | 3♠   |   |
        | 2♠   |   |
        | A♠   |   |
        | 9♥   |   |
      Then K♠ to column 2 is legal
      And the game is playing

  @R-COLLECT-EVERY-COLUMN @runs-collect
  Rule: Every column is checked after every action

    @id:COLLECT-011
    Example: One move collects two runs, where it lands and where it left
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
      When the player moves A♠ to column 1
      Then column 1 is empty
      And column 2 is empty
      And the ♠ run has been collected
      And the ♥ run has been collected

    @id:COLLECT-012
    Example: Moving a card off a finished run collects it
      Given the table
        | 1   | 2  |
        | K♥  | 6♦ |
        | Q♥  |    |
        | J♥  |    |
        | 10♥ |    |
        | 9♥  |    |
        | 8♥  |    |
        | 7♥  |    |
        | 6♥  |    |
        | 5♥  |    |
        | 4♥  |    |
        | 3♥  |    |
        | 2♥  |    |
        | A♥  |    |
        | 5♦  |    |
      When the player moves 5♦ to column 2
      Then column 1 is empty
      And column 2 reads 6♦ 5♦
      And the ♥ run has been collected

    @id:COLLECT-015 @R-COLLECT-THEN-FLIP
    Example: A run uncovered by a collection is collected in the same action
      Given the table
        | 1    | 2  |
        | [7♣] | A♥ |
        | K♠   |    |
        | Q♠   |    |
        | J♠   |    |
        | 10♠  |    |
        | 9♠   |    |
        | 8♠   |    |
        | 7♠   |    |
        | 6♠   |    |
        | 5♠   |    |
        | 4♠   |    |
        | 3♠   |    |
        | 2♠   |    |
        | A♠   |    |
        | K♥   |    |
        | Q♥   |    |
        | J♥   |    |
        | 10♥  |    |
        | 9♥   |    |
        | 8♥   |    |
        | 7♥   |    |
        | 6♥   |    |
        | 5♥   |    |
        | 4♥   |    |
        | 3♥   |    |
        | 2♥   |    |
      When the player moves A♥ to column 1
      Then the ♥ run has been collected
      And the ♠ run has been collected
      And column 1 reads 7♣
      And column 2 is empty

  @R-COLLECT-BY-STOCK @runs-collect
  Rule: A stock card that finishes a run has it collected

    @id:COLLECT-013 @stock-any-time @R-STOCK-NO-CHECK
    Example: The deal finishes a run and it leaves the table
      Given the table
        | 1   | 2  | 3  |
        | K♠  | 9♥ | 4♦ |
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
      And the stock holds A♠ 3♣ 8♦
      When the player deals the stock
      Then column 1 is empty
      And column 2 reads 9♥ 3♣
      And column 3 reads 4♦ 8♦
      And the ♠ run has been collected
      And the stock is empty

  @R-COLLECT-THEN-FLIP @runs-collect
  Rule: A hidden card uncovered by a collection turns face up

    @id:COLLECT-014 @R-FLIP-AUTOMATIC
    Example: Collecting a run reveals the hidden card beneath it
      Given the table
        | 1    | 2  |
        | [7♦] | A♠ |
        | [3♣] |    |
        | K♠   |    |
        | Q♠   |    |
        | J♠   |    |
        | 10♠  |    |
        | 9♠   |    |
        | 8♠   |    |
        | 7♠   |    |
        | 6♠   |    |
        | 5♠   |    |
        | 4♠   |    |
        | 3♠   |    |
        | 2♠   |    |
      When the player moves A♠ to column 1
      Then column 1 reads [7♦] 3♣
      And the ♠ run has been collected
      And 7♦ is face down
