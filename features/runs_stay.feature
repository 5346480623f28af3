Feature: Finished runs that stay on the table
  Where runs stay, a completed King-to-Ace run is never removed. It keeps its
  place, its Ace takes no card, and it still counts as complete when other
  cards lie on it. Its cards obey the ordinary move rules.

  @R-STAY-NO-REMOVAL @runs-stay
  Rule: A completed run is never taken off the table

    @id:STAY-001
    Example: A finished run stays where it was built
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
      Then column 1 reads K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ A♠
      And column 2 reads 9♥
      And no run has been collected

    @id:STAY-002 @empty-king
    Example: A run finished by the stock stays on the table
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
      Then column 1 reads K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ A♠
      And column 2 reads 9♥ 3♣
      And no run has been collected
      And the stock is empty

    @id:STAY-003
    Example: Two runs finished by one move both stay
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
      Then column 1 reads K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ A♠
      And column 2 reads K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ A♥
      And no run has been collected

  @R-STAY-ACE-BLOCKS @runs-stay
  Rule: Nothing is played onto a finished run

    @id:STAY-004
    Example: The Ace of a finished run receives nothing
      Given the table
        | 1   | 2  | 3  | 4   | 5  | 6  | 7  |
        | K♠  | 5♦ | 9♣ | 10♣ | J♦ | 3♥ | Q♣ |
        | Q♠  |    |    |     |    |    |    |
        | J♠  |    |    |     |    |    |    |
        | 10♠ |    |    |     |    |    |    |
        | 9♠  |    |    |     |    |    |    |
        | 8♠  |    |    |     |    |    |    |
        | 7♠  |    |    |     |    |    |    |
        | 6♠  |    |    |     |    |    |    |
        | 5♠  |    |    |     |    |    |    |
        | 4♠  |    |    |     |    |    |    |
        | 3♠  |    |    |     |    |    |    |
        | 2♠  |    |    |     |    |    |    |
        | A♠  |    |    |     |    |    |    |
      Then the legal actions are exactly 9♣ to column 4

    @id:STAY-005 @empty-king @R-STOCK-NO-CHECK
    Example: The stock still lands on a finished run
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
        | A♠  |    |    |
      And the stock holds 5♣ J♦ 2♥
      When the player deals the stock
      Then column 1 ends with 2♠ A♠ 5♣
      And column 2 reads 9♥ J♦
      And column 3 reads 4♦ 2♥

  @R-STAY-RUN-DEFINITION @runs-stay
  Rule: Thirteen face-up cards from King to Ace of one suit are a complete run wherever they lie

    @id:STAY-006 @empty-king @finished-runs-ignored @R-AVAIL-FINISHED-RUN-IGNORED
    Example: A run with a card on its Ace still counts as finished
      Given the table
        | 1   | 2  |
        | 4♣  | 7♦ |
        | K♠  |    |
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
        | A♠  |    |
        | 9♥  |    |
      Then K♠ to column 3 is legal
      And the game is lost

    @id:STAY-009 @empty-king @finished-runs-ignored @R-AVAIL-FINISHED-RUN-IGNORED
    Example: Thirteen cards led by a King that do not end in its Ace are no finished run
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
        | 5♥   |   |
      Then K♠ to column 2 is legal
      And the game is playing

  @R-STAY-RUN-MOVES-LEGAL @runs-stay
  Rule: The cards of a finished run follow the ordinary move rules

    @id:STAY-007
    Example: A finished run may be carried off the cards beneath it into a space
      Given the table
        | 1   | 2  |
        | 4♣  | 7♦ |
        | K♠  |    |
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
        | A♠  |    |
      When the player moves K♠ to column 3
      Then column 3 reads K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ A♠
      And column 1 reads 4♣

    @id:STAY-008 @empty-king
    Example: A card inside a finished run cannot leave it for a space
      Given the table
        | 1   | 2  |
        | 4♣  | 7♦ |
        | K♠  |    |
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
        | A♠  |    |
      When the player moves 7♠ to column 3
      Then the action is refused as empty-column-needs-king
