Feature: The deal
  A game begins from seven columns and a three-card stock. Starting a game
  takes the layout exactly as it is given: hidden cards stay hidden, nothing
  is turned over and nothing is collected until the player acts. Test
  positions may also hold only the few cards an example needs.

  @R-DEAL-SEVEN-COLUMNS @R-DEAL-ONE-DECK @R-DEAL-LAST-THREE-OPEN
  Rule: A full deal is seven columns of seven cards from one pack

    @id:DEAL-001
    Example: The last three columns of a fresh deal show every card
      Given the table
        | 1    | 2    | 3    | 4    | 5   | 6  | 7   |
        | [4♠] | [Q♦] | [K♠] | [6♣] | 9♥  | A♣ | 3♠  |
        | [J♣] | [3♥] | [2♣] | [A♥] | 4♦  | 7♥ | 10♥ |
        | [2♦] | [8♣] | [9♠] | [7♦] | J♠  | 5♦ | 6♦  |
        | 9♦   | 5♠   | J♥   | 10♠  | 3♣  | 2♥ | 9♣  |
        | K♥   | 10♣  | 3♦   | 5♥   | 8♥  | K♦ | A♠  |
        | 4♣   | A♦   | 8♦   | K♣   | Q♠  | 6♠ | 4♥  |
        | 7♠   | 6♥   | Q♣   | 2♠   | 10♦ | 8♠ | J♦  |
      And the stock holds 5♣ Q♥ 7♣
      Then column 5 reads 9♥ 4♦ J♠ 3♣ 8♥ Q♠ 10♦
      And column 6 reads A♣ 7♥ 5♦ 2♥ K♦ 6♠ 8♠
      And column 7 reads 3♠ 10♥ 6♦ 9♣ A♠ 4♥ J♦
      And no run has been collected

  @R-DEAL-FIRST-FOUR-HIDDEN @R-DEAL-HIDDEN-COUNT
  Rule: Columns 1 to 4 begin with three hidden cards under four visible ones

    @id:DEAL-002
    Example: The first four columns of a fresh deal keep their hidden cards
      Given the table
        | 1    | 2    | 3    | 4    | 5   | 6  | 7   |
        | [4♠] | [Q♦] | [K♠] | [6♣] | 9♥  | A♣ | 3♠  |
        | [J♣] | [3♥] | [2♣] | [A♥] | 4♦  | 7♥ | 10♥ |
        | [2♦] | [8♣] | [9♠] | [7♦] | J♠  | 5♦ | 6♦  |
        | 9♦   | 5♠   | J♥   | 10♠  | 3♣  | 2♥ | 9♣  |
        | K♥   | 10♣  | 3♦   | 5♥   | 8♥  | K♦ | A♠  |
        | 4♣   | A♦   | 8♦   | K♣   | Q♠  | 6♠ | 4♥  |
        | 7♠   | 6♥   | Q♣   | 2♠   | 10♦ | 8♠ | J♦  |
      And the stock holds 5♣ Q♥ 7♣
      Then column 1 reads [4♠] [J♣] [2♦] 9♦ K♥ 4♣ 7♠
      And column 2 reads [Q♦] [3♥] [8♣] 5♠ 10♣ A♦ 6♥
      And column 3 reads [K♠] [2♣] [9♠] J♥ 3♦ 8♦ Q♣
      And column 4 reads [6♣] [A♥] [7♦] 10♠ 5♥ K♣ 2♠

    @id:DEAL-003
    Example: Emptying the face-up part of a dealt column reveals one hidden card
      Given the table
        | 1    | 2    | 3    | 4    | 5   | 6  | 7   |
        | [4♠] | [Q♦] | [K♠] | [6♣] | 9♥  | A♣ | 3♠  |
        | [J♣] | [3♥] | [2♣] | [A♥] | 4♦  | 7♥ | 10♥ |
        | [2♦] | [8♣] | [9♠] | [7♦] | J♠  | 5♦ | 6♦  |
        | 9♦   | 5♠   | J♥   | 10♠  | 3♣  | 2♥ | 9♣  |
        | K♥   | 10♣  | 3♦   | 5♥   | 8♥  | K♦ | A♠  |
        | 4♣   | A♦   | 8♦   | K♣   | Q♠  | 6♠ | 4♥  |
        | 7♠   | 6♥   | Q♣   | 2♠   | 10♦ | 8♠ | J♦  |
      And the stock holds 5♣ Q♥ 7♣
      When the player moves 9♦ to column 5
      Then column 1 reads [4♠] [J♣] 2♦
      And column 5 reads 9♥ 4♦ J♠ 3♣ 8♥ Q♠ 10♦ 9♦ K♥ 4♣ 7♠
      And J♣ is face down

  @R-DEAL-STOCK-THREE
  Rule: The three cards left over wait in the stock, out of play

    @id:DEAL-004
    Example: The stock of a fresh deal holds its three cards
      Given the table
        | 1    | 2    | 3    | 4    | 5   | 6  | 7   |
        | [4♠] | [Q♦] | [K♠] | [6♣] | 9♥  | A♣ | 3♠  |
        | [J♣] | [3♥] | [2♣] | [A♥] | 4♦  | 7♥ | 10♥ |
        | [2♦] | [8♣] | [9♠] | [7♦] | J♠  | 5♦ | 6♦  |
        | 9♦   | 5♠   | J♥   | 10♠  | 3♣  | 2♥ | 9♣  |
        | K♥   | 10♣  | 3♦   | 5♥   | 8♥  | K♦ | A♠  |
        | 4♣   | A♦   | 8♦   | K♣   | Q♠  | 6♠ | 4♥  |
        | 7♠   | 6♥   | Q♣   | 2♠   | 10♦ | 8♠ | J♦  |
      And the stock holds 5♣ Q♥ 7♣
      Then the stock holds 5♣ Q♥ 7♣
      And Q♥ to column 3 is not legal

    @id:DEAL-005
    Example: A card waiting in the stock cannot be picked up
      Given the table
        | 1    | 2    | 3    | 4    | 5   | 6  | 7   |
        | [4♠] | [Q♦] | [K♠] | [6♣] | 9♥  | A♣ | 3♠  |
        | [J♣] | [3♥] | [2♣] | [A♥] | 4♦  | 7♥ | 10♥ |
        | [2♦] | [8♣] | [9♠] | [7♦] | J♠  | 5♦ | 6♦  |
        | 9♦   | 5♠   | J♥   | 10♠  | 3♣  | 2♥ | 9♣  |
        | K♥   | 10♣  | 3♦   | 5♥   | 8♥  | K♦ | A♠  |
        | 4♣   | A♦   | 8♦   | K♣   | Q♠  | 6♠ | 4♥  |
        | 7♠   | 6♥   | Q♣   | 2♠   | 10♦ | 8♠ | J♦  |
      And the stock holds 5♣ Q♥ 7♣
      When the player moves 7♣ to column 5
      Then the action is refused as card-in-stock

  @R-DEAL-NO-WASTE
  Rule: Besides the columns and the stock there is nowhere to put a card

    @id:DEAL-006 @stock-any-time @R-STOCK-ANY-TIME @R-MOVE-ACTION-ORDER
    Example: A fresh deal offers group moves and the deal, nothing else
      Given the table
        | 1    | 2    | 3    | 4    | 5   | 6  | 7   |
        | [4♠] | [Q♦] | [K♠] | [6♣] | 9♥  | A♣ | 3♠  |
        | [J♣] | [3♥] | [2♣] | [A♥] | 4♦  | 7♥ | 10♥ |
        | [2♦] | [8♣] | [9♠] | [7♦] | J♠  | 5♦ | 6♦  |
        | 9♦   | 5♠   | J♥   | 10♠  | 3♣  | 2♥ | 9♣  |
        | K♥   | 10♣  | 3♦   | 5♥   | 8♥  | K♦ | A♠  |
        | 4♣   | A♦   | 8♦   | K♣   | Q♠  | 6♠ | 4♥  |
        | 7♠   | 6♥   | Q♣   | 2♠   | 10♦ | 8♠ | J♦  |
      And the stock holds 5♣ Q♥ 7♣
      Then the legal actions are exactly deal, 10♦ to column 7, 7♠ to column 6, 9♦ to column 5, A♠ to column 4, 5♥ to column 2, 6♠ to column 1

    @id:DEAL-007 @stock-when-stuck @R-STOCK-WHEN-STUCK
    Example: A fresh deal offers only group moves while the stock is locked
      Given the table
        | 1    | 2    | 3    | 4    | 5   | 6  | 7   |
        | [4♠] | [Q♦] | [K♠] | [6♣] | 9♥  | A♣ | 3♠  |
        | [J♣] | [3♥] | [2♣] | [A♥] | 4♦  | 7♥ | 10♥ |
        | [2♦] | [8♣] | [9♠] | [7♦] | J♠  | 5♦ | 6♦  |
        | 9♦   | 5♠   | J♥   | 10♠  | 3♣  | 2♥ | 9♣  |
        | K♥   | 10♣  | 3♦   | 5♥   | 8♥  | K♦ | A♠  |
        | 4♣   | A♦   | 8♦   | K♣   | Q♠  | 6♠ | 4♥  |
        | 7♠   | 6♥   | Q♣   | 2♠   | 10♦ | 8♠ | J♦  |
      And the stock holds 5♣ Q♥ 7♣
      Then the legal actions are exactly 6♠ to column 1, 5♥ to column 2, A♠ to column 4, 9♦ to column 5, 7♠ to column 6, 10♦ to column 7

  @R-DEAL-PARTIAL-POSITIONS
  Rule: A test position may hold just the cards that matter

    @id:DEAL-008
    Example: Four cards are enough for a game
      Given the table
        | 1    | 2   |
        | [4♠] | 10♦ |
        | 9♦   |     |
        | 3♣   |     |
      When the player moves 9♦ to column 2
      Then column 2 reads 10♦ 9♦ 3♣
      And column 1 reads 4♠

    @id:DEAL-009
    Example: A card missing from the position is not in play
      Given the table
        | 1    | 2   |
        | [4♠] | 10♦ |
        | 3♣   |     |
      When the player moves 9♦ to column 2
      Then the action is refused as card-not-in-play

    @id:DEAL-010 @runs-collect @synthetic
    Example: Starting the game collects nothing and turns nothing over
      No game reaches this start where runs are collected: the action that
      finishes a run at the top of a column collects it.
      Given the table
        | 1   | 2    |
        | K♣  | [6♦] |
        | Q♣  | [8♥] |
        | J♣  | 2♠   |
        | 10♣ |      |
        | 9♣  |      |
        | 8♣  |      |
        | 7♣  |      |
        | 6♣  |      |
        | 5♣  |      |
        | 4♣  |      |
        | 3♣  |      |
        | 2♣  |      |
        | A♣  |      |
      Then column 1 reads K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣ A♣
      And column 2 reads [6♦] [8♥] 2♠
      And no run has been collected

    @id:DEAL-011 @runs-stay
    Example: Where runs stay, starting the game leaves a finished run where it lies
      Given the table
        | 1   | 2    |
        | K♣  | [6♦] |
        | Q♣  | [8♥] |
        | J♣  | 2♠   |
        | 10♣ |      |
        | 9♣  |      |
        | 8♣  |      |
        | 7♣  |      |
        | 6♣  |      |
        | 5♣  |      |
        | 4♣  |      |
        | 3♣  |      |
        | 2♣  |      |
        | A♣  |      |
      Then column 1 reads K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣ A♣
      And column 2 reads [6♦] [8♥] 2♠
      And no run has been collected

    @id:DEAL-012
    Example: On an empty table no card is in play
      Given an empty table
      And the stock has been dealt
      When the player moves K♠ to column 1
      Then the action is refused as card-not-in-play

    @id:DEAL-013 @R-STOCK-ONCE
    Example: An empty table with the stock dealt offers nothing, not even a deal
      Given an empty table
      And the stock has been dealt
      Then no action is legal
      When the player deals the stock
      Then the action is refused as stock-empty
