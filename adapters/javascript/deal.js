'use strict';
// Deals by game number, the same cards PySolFC deals for Scorpion (scorpion_ref/deal.py
// writes the procedure down; tests/test_play_page.py holds the two equal):
// 1. the 52 cards in pysol-cards' order (suits clubs, spades, hearts, diamonds; Ace to King);
// 2. shuffled as PySolFC does: games below 32000 with the MS-FreeCell-style linear
//    congruential generator (the cards rearranged first as MS FreeCell does), game 32000 and
//    above with Python's Mersenne Twister seeded with the game number;
// 3. the shuffled list reversed: index 0 is dealt first; card k (k < 49) to column k mod 7,
//    row k div 7, face down in rows 0 to 2 of columns 1 to 4; cards 49 to 51 are the stock.
(function (root, make) {
  if (typeof module === 'object' && module.exports) module.exports = make(require('./engine.js'));
  else root.ScorpionDeal = make(root.ScorpionEngine);
}(typeof self !== 'undefined' ? self : this, function (E) {
  const MS_DEALS_BELOW = 32000;
  const MAX_GAME = 1e20;
  const PYSOL_SUITS = 'CSHD';

  // MS FreeCell's generator as pysol-cards writes it (LCRandom31), for seeds below 2**31.
  function msShuffle(cards, seed) {
    let x = seed;
    const random = () => {
      x = (x * 214013 + 2531011) % 8589934592; // 2**33; the product stays below 2**53
      return Math.floor(x / 65536) & 0x7fff;
    };
    for (let n = cards.length - 1; n > 0; n--) {
      const j = random() % (n + 1);
      [cards[n], cards[j]] = [cards[j], cards[n]];
    }
    return cards;
  }

  // Python's random.Random(seed): MT19937 seeded by init_by_array with the seed's 32-bit words.
  function pythonRandom(seed) {
    const mt = new Uint32Array(624);
    let index = 624;
    const init = (s) => {
      mt[0] = s >>> 0;
      for (let i = 1; i < 624; i++) {
        const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
        mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
      }
    };
    let words = [];
    let rest = BigInt(seed);
    while (rest > 0n) {
      words.push(Number(rest & 0xffffffffn));
      rest >>= 32n;
    }
    if (words.length === 0) words = [0];
    init(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(624, words.length); k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + words[j] + j) >>> 0;
      i++;
      j++;
      if (i >= 624) {
        mt[0] = mt[623];
        i = 1;
      }
      if (j >= words.length) j = 0;
    }
    for (let k = 623; k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= 624) {
        mt[0] = mt[623];
        i = 1;
      }
    }
    mt[0] = 0x80000000;
    const next = () => {
      if (index >= 624) {
        for (let k = 0; k < 624; k++) {
          const y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7fffffff);
          mt[k] = mt[(k + 397) % 624] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
        }
        index = 0;
      }
      let y = mt[index++];
      y ^= y >>> 11;
      y ^= (y << 7) & 0x9d2c5680;
      y ^= (y << 15) & 0xefc60000;
      y ^= y >>> 18;
      return y >>> 0;
    };
    return () => ((next() >>> 5) * 67108864 + (next() >>> 6)) / 9007199254740992;
  }

  function mtShuffle(cards, seed) {
    const random = pythonRandom(seed);
    for (let n = cards.length - 1; n > 0; n--) {
      const j = Math.floor(random() * (n + 1));
      [cards[n], cards[j]] = [cards[j], cards[n]];
    }
    return cards;
  }

  // The 52 cards of game `game` in dealing order (index 0 is dealt first).
  function shuffledDeck(game) {
    if (!Number.isSafeInteger(game) || game < 1 || game >= MAX_GAME) {
      throw new RangeError(`game numbers run from 1 to ${Number.MAX_SAFE_INTEGER} here, not ${game}`);
    }
    const cards = [];
    for (let s = 0; s < 4; s++) for (let r = 0; r < 13; r++) cards.push(E.RANKS[r] + PYSOL_SUITS[s]);
    let shuffled;
    if (game < MS_DEALS_BELOW) {
      const rearranged = [];
      for (let i = 0; i < 13; i++) for (const j of [0, 39, 26, 13]) rearranged.push(cards[i + j]);
      shuffled = msShuffle(rearranged, game);
    } else {
      shuffled = mtShuffle(cards, game);
    }
    return shuffled.reverse();
  }

  // The start position of game `game`, in the protocol's shape.
  function dealGame(game) {
    const cards = shuffledDeck(game);
    const columns = Array.from({ length: E.COLUMNS }, () => ({ down: [], up: [] }));
    cards.slice(0, 49).forEach((card, k) => {
      const column = k % 7;
      const row = Math.floor(k / 7);
      columns[column][row < 3 && column < 4 ? 'down' : 'up'].push(card);
    });
    return { columns, stock: cards.slice(49), removed: [] };
  }

  return { dealGame, shuffledDeck, MS_DEALS_BELOW };
}));
