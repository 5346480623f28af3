Feature: Variants and named rule sets
  The suite names five rule sets, each a bundle of option values: standard,
  classic, wasp, pysolfc and aisleriot. One layout shows how they differ: a
  Queen carrying a King over a hidden card, a King alone with one passenger
  in its column, an 8♥ that fits a 9♥, three spaces and a full stock.

  @R-SET-STANDARD @stock-any-time @empty-king @whole-column-refused
  Rule: Standard: only Kings fill spaces, whole columns stay, the stock goes any time

    @id:VARIANT-001
    Example: Under standard rules the layout offers the loose King, the 8♥ and the deal
      Given the table
        | 1    | 2  | 3  | 4  |
        | [3♥] | K♠ | 8♥ | 9♥ |
        | Q♣   | 4♦ |    |    |
        | K♦   |    |    |    |
      And the stock holds 2♣ 6♦ J♠
      Then the legal actions are exactly K♦ to column 5, K♦ to column 6, K♦ to column 7, 8♥ to column 4, deal

  @R-SET-CLASSIC @stock-when-stuck @empty-king @whole-column-refused
  Rule: Classic: only Kings fill spaces, whole columns stay, the stock waits

    @id:VARIANT-002
    Example: Under classic rules the layout offers the loose King and the 8♥ only
      Given the table
        | 1    | 2  | 3  | 4  |
        | [3♥] | K♠ | 8♥ | 9♥ |
        | Q♣   | 4♦ |    |    |
        | K♦   |    |    |    |
      And the stock holds 2♣ 6♦ J♠
      Then the legal actions are exactly K♦ to column 5, K♦ to column 6, K♦ to column 7, 8♥ to column 4

    @id:VARIANT-003 @R-STOCK-WHEN-STUCK
    Example: Under classic rules the stock of the layout is locked
      Given the table
        | 1    | 2  | 3  | 4  |
        | [3♥] | K♠ | 8♥ | 9♥ |
        | Q♣   | 4♦ |    |    |
        | K♦   |    |    |    |
      And the stock holds 2♣ 6♦ J♠
      When the player deals the stock
      Then the action is refused as stock-locked

  @R-SET-CLASSIC-WHOLE-COLUMN @runs-stay @whole-column-refused
  Rule: Classic refuses to shift a whole column into a space

    @id:VARIANT-004 @R-EMPTY-WHOLE-COLUMN-REFUSED
    Example: Under classic rules the lone King stays in its column
      Given the table
        | 1    | 2  | 3  | 4  |
        | [3♥] | K♠ | 8♥ | 9♥ |
        | Q♣   | 4♦ |    |    |
        | K♦   |    |    |    |
      And the stock holds 2♣ 6♦ J♠
      When the player moves K♠ to column 6
      Then the action is refused as whole-column-to-empty

  @R-SET-WASP @empty-any @stock-any-time @whole-column-refused
  Rule: Wasp: any card fills a space, whole columns stay, the stock goes any time

    @id:VARIANT-005
    Example: Under wasp rules every card resting on another is offered the spaces
      Given the table
        | 1    | 2  | 3  | 4  |
        | [3♥] | K♠ | 8♥ | 9♥ |
        | Q♣   | 4♦ |    |    |
        | K♦   |    |    |    |
      And the stock holds 2♣ 6♦ J♠
      Then the legal actions are exactly Q♣ to column 5, Q♣ to column 6, Q♣ to column 7, K♦ to column 5, K♦ to column 6, K♦ to column 7, 4♦ to column 5, 4♦ to column 6, 4♦ to column 7, 8♥ to column 4, deal

  @R-SET-PYSOLFC @runs-collect @whole-column-allowed @empty-king @stock-any-time
  Rule: Pysolfc: runs are collected, only Kings fill spaces, whole columns may shift

    @id:VARIANT-006
    Example: Under pysolfc rules both Kings are offered the spaces
      Given the table
        | 1    | 2  | 3  | 4  |
        | [3♥] | K♠ | 8♥ | 9♥ |
        | Q♣   | 4♦ |    |    |
        | K♦   |    |    |    |
      And the stock holds 2♣ 6♦ J♠
      Then the legal actions are exactly K♦ to column 5, K♦ to column 6, K♦ to column 7, K♠ to column 5, K♠ to column 6, K♠ to column 7, 8♥ to column 4, deal

  @R-SET-PYSOLFC-STOCK @runs-collect @whole-column-allowed @stock-any-time
  Rule: Pysolfc deals the stock whenever the player asks

    @id:VARIANT-007
    Example: Under pysolfc rules the stock may be dealt while moves remain
      Given the table
        | 1    | 2  | 3  | 4  |
        | [3♥] | K♠ | 8♥ | 9♥ |
        | Q♣   | 4♦ |    |    |
        | K♦   |    |    |    |
      And the stock holds 2♣ 6♦ J♠
      When the player deals the stock
      Then column 1 reads [3♥] Q♣ K♦ 2♣
      And column 2 reads K♠ 4♦ 6♦
      And column 3 reads 8♥ J♠
      And the stock is empty

  @R-SET-AISLERIOT @runs-stay @whole-column-allowed @empty-king @stock-any-time
  Rule: Aisleriot: runs stay, only Kings fill spaces, whole columns may shift

    @id:VARIANT-008
    Example: Under aisleriot rules both Kings and the deal are offered
      Given the table
        | 1    | 2  | 3  | 4  |
        | [3♥] | K♠ | 8♥ | 9♥ |
        | Q♣   | 4♦ |    |    |
        | K♦   |    |    |    |
      And the stock holds 2♣ 6♦ J♠
      Then the legal actions are exactly K♦ to column 5, K♦ to column 6, K♦ to column 7, K♠ to column 5, K♠ to column 6, K♠ to column 7, 8♥ to column 4, deal

    @id:VARIANT-009 @R-EMPTY-WHOLE-COLUMN-ALLOWED
    Example: Under aisleriot rules the lone King may change columns
      Given the table
        | 1    | 2  | 3  | 4  |
        | [3♥] | K♠ | 8♥ | 9♥ |
        | Q♣   | 4♦ |    |    |
        | K♦   |    |    |    |
      And the stock holds 2♣ 6♦ J♠
      When the player moves K♠ to column 6
      Then column 6 reads K♠ 4♦
      And column 2 is empty

  @R-VAR-SPIDER-CONTRAST
  Rule: Unlike Spider, a group need not be a same-suit sequence to move

    @id:VARIANT-010
    Example: A mixed pile moves although it forms no sequence
      Given the table
        | 1    | 2  |
        | [2♦] | 7♠ |
        | 6♠   |    |
        | J♥   |    |
        | 3♣   |    |
      When the player moves 6♠ to column 2
      Then column 2 reads 7♠ 6♠ J♥ 3♣
      And column 1 reads 2♦

  @R-VAR-YUKON-CONTRAST
  Rule: Unlike Yukon, alternating colours give no landing place

    @id:VARIANT-011
    Example: A red nine is turned away from a black ten
      Given the table
        | 1    | 2   |
        | [5♣] | 10♠ |
        | 9♦   |     |
      When the player moves 9♦ to column 2
      Then the action is refused as not-same-suit
