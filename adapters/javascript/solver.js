'use strict';
// The solver of the `solve` capability and of the Play page: the reference solver's compact
// search (scorpion_ref/solver/search.py, fast.py, reductions.py and the compiled loop of
// _core.c), ported to JavaScript over typed arrays.
//
// It runs the same search: the same representation (a card is 13 * suit + rank, Ace 0, plus
// 64 when face down; a column lists its cards from bottom to top), the same moves in the same
// order, the same reductions (a transposition table whose key treats the columns the stock
// cannot reach as a multiset, one target per class of equivalent empty columns, no
// whole-column transfer that only relabels, the dead-deal theorems face-down-cycle and
// missing-cards asked at the start) and the same node counting. Each reduction's soundness
// argument is written once, in scorpion_ref/solver/reductions.py. tests/test_javascript_solver.py
// holds it equal to the Python core on positions of every named rule set.
//
// Why its answers are sound:
// - won: the line is the path the search took, each step a legal move of the rules, ending
//   in a won position; the protocol's `play` replays exactly these actions.
// - lost: the reachable space was exhausted (every position is expanded at most once, and the
//   table's keys are exact: two positions share a key only when one is the other with columns
//   the stock cannot reach renamed), or a dead-deal theorem proved that no line can win.
// - unknown: the budget of positions, the memory or the time ran out first.
(function (root, make) {
  if (typeof module === 'object' && module.exports) module.exports = make(require('./engine.js'));
  else root.ScorpionSolver = make(root.ScorpionEngine);
}(typeof self !== 'undefined' ? self : this, function (E) {
  // The most positions one search of the adapter's `solve` expands, whatever the budget asks,
  // and the longest it runs (well within the harness's wait for an answer): past either, unknown.
  const MAX_POSITIONS = 5000000;
  const MAX_MILLISECONDS = 20000;
  // How often (in positions expanded) the time, the memory and progress are looked at.
  const CHECK_EVERY = 4096;

  const DOWN = 64;
  const NCOL = 7;
  const NO = 255; // the deal is the move (NO, NO, NO)
  const DEAL = 0xffffff;
  const MAX_MOVES = 512;
  // A state: the columns' lengths, the stock's length, the collected suits as bits, the
  // stock, then each column's cards.
  const NSTOCK = 7;
  const SUITBITS = 8;
  const STOCK = 9;
  const CARDS = 16;
  const SZ = CARDS + NCOL * 52; // 380
  const at = (col) => CARDS + col * 52;
  const F_COLLECT = 1;
  const F_ANY_TIME = 2;
  const F_EMPTY_ANY = 4;
  const F_WHOLE_ALLOWED = 8;
  const F_ONE_PER_COLUMN = 16;
  const F_RUNS_IGNORED = 32;

  // The rule options as the bits the search tests (every option of the vocabulary has two values).
  function flagsOf(rules) {
    return (rules.runs === 'collect' ? F_COLLECT : 0) |
      (rules.stock === 'any-time' ? F_ANY_TIME : 0) |
      (rules.empty_column === 'any' ? F_EMPTY_ANY : 0) |
      (rules.whole_column_to_empty === 'allowed' ? F_WHOLE_ALLOWED : 0) |
      (rules.win === 'one-run-per-column' ? F_ONE_PER_COLUMN : 0) |
      (rules.runs === 'stay' && rules.finished_run_moves === 'ignored' ? F_RUNS_IGNORED : 0);
  }

  const number = (card) => 13 * E.SUITS.indexOf(card[1]) + E.RANKS.indexOf(card[0]);
  const cardName = (n) => E.RANKS[(n & (DOWN - 1)) % 13] + E.SUITS[Math.floor((n & (DOWN - 1)) / 13)];

  // The compact state of a protocol position, into st at off.
  function encode(pos, st, off) {
    st.fill(0, off, off + SZ);
    pos.columns.forEach((column, col) => {
      let j = 0;
      for (const c of column.down) st[off + at(col) + j++] = number(c) + DOWN;
      for (const c of column.up) st[off + at(col) + j++] = number(c);
      st[off + col] = j;
    });
    pos.stock.forEach((c, k) => { st[off + STOCK + k] = number(c); });
    st[off + NSTOCK] = pos.stock.length;
    let suits = 0;
    for (const s of pos.removed) suits |= 1 << E.SUITS.indexOf(s);
    st[off + SUITBITS] = suits;
  }

  function downCount(st, off, col) {
    const len = st[off + col];
    const base = off + at(col);
    let n = 0;
    while (n < len && st[base + n] >= DOWN) n++;
    return n;
  }

  // Whether the suit's complete run, King to Ace, lies face up somewhere in the column.
  function hasRun(st, off, col, suit) {
    const len = st[off + col];
    const base = off + at(col);
    const king = 13 * suit + 12;
    for (let j = 0; j + 13 <= len; j++) {
      if (st[base + j] === king) {
        for (let k = 1; k < 13; k++) if (st[base + j + k] !== king - k) return false;
        return true;
      }
    }
    return false;
  }

  const whereCol = new Int8Array(52);
  const whereIdx = new Uint8Array(52);
  let available = 0; // set by movesOf: how many of its moves are available

  // fast.moves_of: the moves into non-empty columns, then into each of `empties`, packed
  // into out as s << 16 | i << 8 | d; returns how many.
  function movesOf(st, off, flags, empties, nempty, out) {
    whereCol.fill(-1);
    for (let col = 0; col < NCOL; col++) {
      const len = st[off + col];
      const base = off + at(col);
      for (let j = downCount(st, off, col); j < len; j++) {
        whereCol[st[base + j]] = col;
        whereIdx[st[base + j]] = j;
      }
    }
    let n = 0;
    for (let dest = 0; dest < NCOL; dest++) {
      const len = st[off + dest];
      if (!len) continue;
      const target = st[off + at(dest) + len - 1];
      if (target % 13) {
        const card = target - 1;
        if (whereCol[card] >= 0 && whereCol[card] !== dest) out[n++] = whereCol[card] << 16 | whereIdx[card] << 8 | dest;
      }
    }
    let avail = n;
    if (nempty) {
      const whole = flags & F_WHOLE_ALLOWED;
      const ignored = flags & F_RUNS_IGNORED;
      if (flags & F_EMPTY_ANY) {
        for (let source = 0; source < NCOL; source++) {
          const len = st[off + source];
          for (let index = downCount(st, off, source); index < len; index++) {
            if (index === 0 && !whole) continue;
            const counts = index !== 0 && !(ignored && hasRun(st, off, source, Math.floor(st[off + at(source) + index] / 13)));
            for (let e = 0; e < nempty; e++) out[n++] = source << 16 | index << 8 | empties[e];
            if (counts) avail += nempty;
          }
        }
      } else {
        for (let suit = 0; suit < 4; suit++) {
          const king = 13 * suit + 12;
          if (whereCol[king] < 0) continue;
          const index = whereIdx[king];
          const source = whereCol[king];
          if (index === 0 && !whole) continue;
          for (let e = 0; e < nempty; e++) out[n++] = source << 16 | index << 8 | empties[e];
          if (index !== 0 && !(ignored && hasRun(st, off, source, suit))) avail += nempty;
        }
      }
    }
    available = avail;
    return n;
  }

  function collectRuns(st, off, col) {
    const base = off + at(col);
    for (;;) {
      let len = st[off + col];
      if (len < 13) return;
      const top = st[base + len - 1];
      if (top % 13) return;
      const suit = top / 13;
      for (let k = 0; k < 13; k++) if (st[base + len - 13 + k] !== 13 * suit + 12 - k) return;
      st[off + SUITBITS] |= 1 << suit;
      len -= 13;
      st[off + col] = len;
      if (len && st[base + len - 1] >= DOWN) st[base + len - 1] -= DOWN;
    }
  }

  // fast.apply_move, from the state at ao into the state at bo of the same buffer; returns
  // the bit set of the columns it changed.
  function applyMove(b, ao, bo, m, flags, sweep) {
    b.copyWithin(bo, ao, ao + SZ);
    let touched;
    if (m === DEAL) {
      const n = b[ao + NSTOCK];
      for (let i = 0; i < n; i++) {
        b[bo + at(i) + b[bo + i]++] = b[ao + STOCK + i];
        b[bo + STOCK + i] = 0;
      }
      b[bo + NSTOCK] = 0;
      touched = (1 << n) - 1;
    } else {
      const s = m >> 16;
      const i = (m >> 8) & 255;
      const d = m & 255;
      const cnt = b[ao + s] - i;
      const from = ao + at(s) + i;
      const to = bo + at(d) + b[bo + d];
      for (let k = 0; k < cnt; k++) b[to + k] = b[from + k];
      b[bo + d] += cnt;
      b[bo + s] = i;
      if (i && b[bo + at(s) + i - 1] >= DOWN) b[bo + at(s) + i - 1] -= DOWN;
      touched = 1 << s | 1 << d;
      if (!(flags & F_COLLECT)) return touched;
    }
    if (flags & F_COLLECT) {
      if (sweep) touched = 127;
      for (let col = 0; col < NCOL; col++) {
        if (!(touched >> col & 1)) continue;
        const len = b[bo + col];
        if (len >= 13 && b[bo + at(col) + len - 1] % 13 === 0) collectRuns(b, bo, col);
      }
    }
    return touched;
  }

  function isRun(st, off, col) {
    if (st[off + col] !== 13) return false;
    const base = off + at(col);
    const king = st[base];
    if (king >= 52 || king % 13 !== 12) return false;
    for (let k = 1; k < 13; k++) if (st[base + k] !== king - k) return false;
    return true;
  }

  // fast.won
  function won(st, off, flags) {
    if (flags & F_COLLECT) return st[off + SUITBITS] === 15;
    if (st[off + NSTOCK]) return false;
    if (flags & F_ONE_PER_COLUMN) {
      for (let col = 0; col < NCOL; col++) if (st[off + col] && !isRun(st, off, col)) return false;
      return true;
    }
    let total = 0;
    for (let col = 0; col < NCOL; col++) total += st[off + col];
    if (total < 52) return false;
    let runs = 0;
    for (let col = 0; col < NCOL; col++) for (let suit = 0; suit < 4; suit++) runs += hasRun(st, off, col, suit) ? 1 : 0;
    return runs >= 4;
  }

  const second = new Int32Array(MAX_MOVES);
  const third = new Int32Array(MAX_MOVES);

  // reductions.order_moves: the moves worth trying, best first, the deal (when `deal`) last.
  function orderMoves(st, off, moves, n, deal, out, relabelsAreNoops) {
    let a = 0;
    let b = 0;
    let t = 0;
    const reach = st[off + NSTOCK];
    for (let k = 0; k < n; k++) {
      const m = moves[k];
      const s = m >> 16;
      const i = (m >> 8) & 255;
      const d = m & 255;
      if (!st[off + d]) {
        if (i === 0 && relabelsAreNoops && s >= reach && d >= reach) continue;
        third[t++] = m;
      } else if (i && st[off + at(s) + i - 1] >= DOWN) {
        out[a++] = m;
      } else {
        second[b++] = m;
      }
    }
    for (let k = 0; k < b; k++) out[a++] = second[k];
    for (let k = 0; k < t; k++) out[a++] = third[k];
    if (deal) out[a++] = DEAL;
    return a;
  }

  // reductions.empty_targets: each empty column the stock reaches, and the first other one.
  function emptyTargets(st, off, out) {
    let n = 0;
    const reach = st[off + NSTOCK];
    for (let d = 0; d < reach; d++) if (!st[off + d]) out[n++] = d;
    for (let d = reach; d < NCOL; d++) {
      if (!st[off + d]) {
        out[n++] = d;
        break;
      }
    }
    return n;
  }

  // reductions.face_down_cycle: face-down cards that wait on each other (see its proof there).
  function faceDownCycle(st, off, flags) {
    const isDown = new Uint8Array(52);
    const edges = Array.from({ length: 52 }, () => []);
    let count = 0;
    for (let col = 0; col < NCOL; col++) {
      const len = st[off + col];
      const base = off + at(col);
      for (let j = 0; j < len - 1 && st[base + j] >= DOWN; j++) {
        isDown[st[base + j] - DOWN] = 1;
        count++;
      }
    }
    for (let col = 0; col < NCOL; col++) {
      const len = st[off + col];
      const base = off + at(col);
      for (let j = 0; j < len - 1 && st[base + j] >= DOWN; j++) {
        const a = st[base + j] - DOWN;
        const b = st[base + j + 1] & (DOWN - 1);
        if (st[base + j + 1] >= DOWN) edges[b].push(a);
        if (!(flags & F_EMPTY_ANY) && b % 13 !== 12 && isDown[b + 1]) edges[b + 1].push(a);
      }
    }
    const indegree = new Int32Array(52);
    for (let c = 0; c < 52; c++) for (const t of edges[c]) indegree[t]++;
    const ready = [];
    for (let c = 0; c < 52; c++) if (isDown[c] && indegree[c] === 0) ready.push(c);
    let removed = 0;
    while (ready.length) {
      const card = ready.pop();
      removed++;
      for (const t of edges[card]) if (--indegree[t] === 0) ready.push(t);
    }
    return removed < count;
  }

  // reductions.missing_cards: a suit that can never make a complete run (see its proof there).
  function missingCards(st, off, flags) {
    const counts = [0, 0, 0, 0];
    for (let col = 0; col < NCOL; col++) {
      for (let j = 0; j < st[off + col]; j++) counts[Math.floor((st[off + at(col) + j] & (DOWN - 1)) / 13)]++;
    }
    for (let k = 0; k < st[off + NSTOCK]; k++) counts[Math.floor(st[off + STOCK + k] / 13)]++;
    const collected = st[off + SUITBITS];
    for (let suit = 0; suit < 4; suit++) {
      const n = counts[suit];
      if (n > 0 && n < 13) return true;
      if (n === 0 && (flags & F_COLLECT) && !(collected >> suit & 1)) return true;
      if (n === 0 && !(flags & F_COLLECT) && !(flags & F_ONE_PER_COLUMN)) return true;
    }
    return false;
  }

  // Whether a column ends in a complete run not yet collected (only a start position can).
  function latentRun(st, off) {
    for (let col = 0; col < NCOL; col++) {
      const len = st[off + col];
      if (len < 13) continue;
      const top = st[off + at(col) + len - 1];
      if (top >= DOWN || top % 13) continue;
      let run = true;
      for (let k = 0; k < 13 && run; k++) run = st[off + at(col) + len - 1 - k] === top + k;
      if (run) return true;
    }
    return false;
  }

  // -- the search -----------------------------------------------------------------------------

  // A search's budget: {nodes, memoryMb, milliseconds, progress(nodes)}; a number is the nodes.
  function readBudget(budget) {
    const b = typeof budget === 'number' ? { nodes: budget } : { ...budget };
    return {
      nodes: b.nodes === undefined ? 2000000 : b.nodes,
      memory: (b.memoryMb === undefined ? 1024 : b.memoryMb) * 1024 * 1024,
      milliseconds: b.milliseconds === undefined ? Infinity : b.milliseconds,
      progress: b.progress || null,
    };
  }

  // Solve a checked protocol position under a rule set (an object with every option, as the
  // engine's ruleSet makes). Returns {outcome: 'won'|'lost'|'unknown', line?, nodes, proof?}.
  function search(position, rules, budget) {
    const limits = readBudget(budget);
    const began = Date.now();
    const flags = flagsOf(rules);
    const root = new Uint8Array(SZ);
    encode(position, root, 0);
    const done = (outcome, proof, nodes, moves) => {
      const answer = { outcome, nodes };
      if (outcome === 'won') answer.line = lineOf(root, flags, moves.latent, moves.list);
      else answer.proof = proof;
      return answer;
    };
    if (won(root, 0, flags)) return done('won', null, 0, { latent: false, list: [] });
    // The root's legal moves, in the engine's order.
    const all = new Int32Array(NCOL);
    let nall = 0;
    for (let d = 0; d < NCOL; d++) if (!root[d]) all[nall++] = d;
    const legal = new Int32Array(MAX_MOVES);
    let nlegal = movesOf(root, 0, flags, all, nall, legal);
    const rootAvailable = available;
    legal.subarray(0, nlegal).sort();
    if (!root[NSTOCK] && !rootAvailable) return done('lost', 'exhausted', 0);
    if (missingCards(root, 0, flags)) return done('lost', 'missing-cards', 0);
    if (faceDownCycle(root, 0, flags)) return done('lost', 'face-down-cycle', 0);
    if (limits.nodes < 1) return done('unknown', 'nodes', 0);
    const latent = (flags & F_COLLECT) && latentRun(root, 0);
    const targets = new Int32Array(NCOL);
    const ntargets = emptyTargets(root, 0, targets);
    const kept = new Int32Array(MAX_MOVES);
    let nkept = 0;
    for (let k = 0; k < nlegal; k++) {
      const d = legal[k] & 255;
      if (root[d] || targets.subarray(0, ntargets).includes(d)) kept[nkept++] = legal[k];
    }
    nlegal = 0;
    const deal = root[NSTOCK] && ((flags & F_ANY_TIME) || !rootAvailable);
    const ordered = new Int32Array(MAX_MOVES + 1);
    const nordered = orderMoves(root, 0, kept, nkept, deal, ordered, !latent);
    const result = loop(root, flags, !!latent, ordered.subarray(0, nordered), limits, began);
    return done(result.outcome, result.proof, result.nodes, { latent: !!latent, list: result.line });
  }

  // The loop of _core.c after the root checks. Every state lives in one buffer: the child
  // being made at 0, the root at SZ, the state at depth d of the path at (d + 1) * SZ.
  //
  // The transposition table's keys are exact, as _core.c's are, but made another way. Every
  // column's cards (bottom to top, face-down ones marked) are interned once in a table of
  // columns, which numbers them (0 is the empty column). A position's key is eight words:
  // the stock's length, the collected suits and the stock's cards, then the numbers of the
  // columns the stock reaches in order, then the others' numbers sorted (a multiset). Two
  // positions get one key exactly when the reference's canonical key is the same. Both tables
  // are open addressing over typed arrays, each entry with its hash; a hash alone never merges
  // two columns or two positions. A child is numbered from its parent's columns and the two
  // its move makes, without being made, unless the move may collect a run or deals.
  function loop(root, flags, latent, rootMoves, limits, began) {
    const maxNodes = limits.nodes;
    const collect = flags & F_COLLECT;
    const onePerColumn = flags & F_ONE_PER_COLUMN;
    let rootCards = root[NSTOCK];
    for (let col = 0; col < NCOL; col++) rootCards += root[col];

    // A table is an Int32Array of (entry + 1, hash) pairs; 0 is an empty slot.
    let colTable = new Int32Array(2 << 9);
    let colCount = 0;
    let posTable = new Int32Array(2 << 10);
    let posCount = 0;
    let colWords = new Int32Array(1 << 12); // each column: its length in bytes, then its bytes
    let colUsed = 0;
    let colAt = new Int32Array(1 << 10); // where column number n lies in colWords
    let colRuns = new Uint8Array(1 << 10); // how many complete runs it holds
    let colAlone = new Uint8Array(1 << 10); // whether it is one complete run and nothing else
    let posWords = new Int32Array(8 << 10); // eight words a position
    const memoryUsed = () => colWords.length * 4 + colAt.length * 6 + posWords.length * 4 +
      (colTable.length + posTable.length) * 4 + mem.length + movesCap * 4 + frameCap * 44;

    // The table twice the size, each entry moved by its hash.
    function grow(old) {
      const next = new Int32Array(old.length * 2);
      const mask = (next.length >> 1) - 1;
      for (let k = 0; k < old.length; k += 2) {
        if (!old[k]) continue;
        let i = old[k + 1] & mask;
        while (next[2 * i]) i = (i + 1) & mask;
        next[2 * i] = old[k];
        next[2 * i + 1] = old[k + 1];
      }
      return next;
    }
    const bigger = (old) => {
      const a = new old.constructor(old.length * 2);
      a.set(old);
      return a;
    };
    const mix = (h) => {
      h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
      h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
      return h ^ (h >>> 16);
    };

    // A column's cards as bytes, and as the words over the same memory.
    const colBuffer = new ArrayBuffer(64);
    const colBytes = new Uint8Array(colBuffer);
    const col32 = new Int32Array(colBuffer);

    // The number of the column whose `len` cards are in colBytes (interned if new).
    function intern(len) {
      if (!len) return 0;
      let q = len;
      while (q & 3) colBytes[q++] = 0;
      const nw = q >> 2;
      let h = len;
      for (let k = 0; k < nw; k++) h = Math.imul(h ^ col32[k], 0x9e3779b1) ^ (h >>> 15);
      h = mix(h);
      if ((colCount + 1) * 20 > colTable.length * 7) colTable = grow(colTable);
      const tab = colTable;
      const mask = (tab.length >> 1) - 1;
      let i = h & mask;
      for (;;) {
        const n = tab[2 * i];
        if (!n) break;
        if (tab[2 * i + 1] === h) {
          const o = colAt[n];
          if (colWords[o] === len) {
            let k = 0;
            while (k < nw && colWords[o + 1 + k] === col32[k]) k++;
            if (k === nw) return n;
          }
        }
        i = (i + 1) & mask;
      }
      if (colUsed + 1 + nw > colWords.length) colWords = bigger(colWords);
      const n = ++colCount;
      if (n >= colAt.length) {
        colAt = bigger(colAt);
        colRuns = bigger(colRuns);
        colAlone = bigger(colAlone);
      }
      colAt[n] = colUsed;
      colWords[colUsed] = len;
      for (let k = 0; k < nw; k++) colWords[colUsed + 1 + k] = col32[k];
      colUsed += 1 + nw;
      tab[2 * i] = n;
      tab[2 * i + 1] = h;
      // Its complete runs, King (face up) to Ace, for the win under runs: stay.
      let runs = 0;
      for (let j = 0; j + 13 <= len; j++) {
        const king = colBytes[j];
        if (king >= 52 || king % 13 !== 12) continue;
        let k = 1;
        while (k < 13 && colBytes[j + k] === king - k) k++;
        if (k === 13) runs++;
      }
      colRuns[n] = runs;
      colAlone[n] = runs === 1 && len === 13 ? 1 : 0;
      return n;
    }

    function columnNumber(st, off, col) {
      const len = st[off + col];
      const base = off + at(col);
      for (let k = 0; k < len; k++) colBytes[k] = st[base + k];
      return intern(len);
    }

    // The column numbers of the node whose children are being made, and of a child.
    const parentIds = new Int32Array(NCOL);
    const ids = new Int32Array(NCOL);
    const key = new Int32Array(8);

    // Whether the position of `ids` (the stock dealt) is won under runs: stay.
    function wonStaying() {
      if (onePerColumn) {
        for (let col = 0; col < NCOL; col++) if (ids[col] && !colAlone[ids[col]]) return false;
        return true;
      }
      if (rootCards < 52) return false;
      let runs = 0;
      for (let col = 0; col < NCOL; col++) runs += colRuns[ids[col]];
      return runs >= 4;
    }

    // 1: the position of `head` and `ids` was new and is now in the table; 0: it was there.
    function insert(head, reach) {
      key[0] = head;
      let n = 1;
      for (let col = 0; col < NCOL; col++) {
        const id = ids[col];
        if (col < reach) {
          key[n++] = id;
        } else {
          let j = n++;
          while (j > reach + 1 && key[j - 1] > id) {
            key[j] = key[j - 1];
            j--;
          }
          key[j] = id;
        }
      }
      let h = 0;
      for (let k = 0; k < 8; k++) h = Math.imul(h ^ key[k], 0x9e3779b1) ^ (h >>> 15);
      h = mix(h);
      if ((posCount + 1) * 20 > posTable.length * 7) posTable = grow(posTable);
      const tab = posTable;
      const mask = (tab.length >> 1) - 1;
      let i = h & mask;
      for (;;) {
        const o = tab[2 * i];
        if (!o) break;
        if (tab[2 * i + 1] === h) {
          const e = (o - 1) << 3;
          if (posWords[e] === key[0] && posWords[e + 1] === key[1] && posWords[e + 2] === key[2] &&
            posWords[e + 3] === key[3] && posWords[e + 4] === key[4] && posWords[e + 5] === key[5] &&
            posWords[e + 6] === key[6] && posWords[e + 7] === key[7]) return 0;
        }
        i = (i + 1) & mask;
      }
      if ((posCount + 1) * 8 > posWords.length) posWords = bigger(posWords);
      posWords.set(key, posCount << 3);
      posCount++;
      tab[2 * i] = posCount;
      tab[2 * i + 1] = h;
      return 1;
    }

    const headOf = (st, off) => st[off + NSTOCK] | st[off + SUITBITS] << 3 |
      st[off + STOCK] << 8 | st[off + STOCK + 1] << 16 | st[off + STOCK + 2] << 24;

    // The state at off, made whole: its columns not in `fresh` are those of parentIds.
    function insertState(st, off, fresh) {
      for (let col = 0; col < NCOL; col++) ids[col] = fresh >> col & 1 ? columnNumber(st, off, col) : parentIds[col];
      return insert(headOf(st, off), st[off + NSTOCK]);
    }

    // A child of the state at `here` by move m: 2 when it is won, else 1 when it is new (and
    // now in the table), 0 when it was seen.
    function child(here, m) {
      const s = m >> 16;
      const i = (m >> 8) & 255;
      const d = m & 255;
      if (m !== DEAL) {
        const sBase = here + at(s);
        const sLen = mem[here + s];
        const dLen = mem[here + d];
        // Under runs: collect, a move collects only where an Ace comes on top: on the
        // destination (the moving group's top card), or on the source (the card under it).
        const mayCollect = collect && ((mem[sBase + sLen - 1] % 13 === 0 && dLen + sLen - i >= 13) ||
          (i >= 13 && mem[sBase + i - 1] % 13 === 0));
        if (!mayCollect) {
          for (let k = 0; k < i; k++) colBytes[k] = mem[sBase + k];
          if (i && colBytes[i - 1] >= DOWN) colBytes[i - 1] -= DOWN;
          const idS = intern(i);
          const dBase = here + at(d);
          for (let k = 0; k < dLen; k++) colBytes[k] = mem[dBase + k];
          for (let k = i; k < sLen; k++) colBytes[dLen + k - i] = mem[sBase + k];
          const idD = intern(dLen + sLen - i);
          for (let col = 0; col < NCOL; col++) ids[col] = parentIds[col];
          ids[s] = idS;
          ids[d] = idD;
          if (!collect && !mem[here + NSTOCK] && wonStaying()) return 2;
          return insert(headOf(mem, here), mem[here + NSTOCK]);
        }
      }
      const fresh = applyMove(mem, here, 0, m, flags, false);
      if (won(mem, 0, flags)) return 2;
      return insertState(mem, 0, fresh);
    }

    // The path: a state per depth (in mem), and the children of each still to try.
    let frameCap = 64;
    let mem = new Uint8Array((frameCap + 1) * SZ);
    let fBase = new Int32Array(frameCap);
    let fCount = new Int32Array(frameCap);
    let fCursor = new Int32Array(frameCap);
    let fIn = new Int32Array(frameCap);
    let fIds = new Int32Array(frameCap * NCOL); // each state's column numbers
    let movesCap = 1 << 11;
    let moves = new Int32Array(movesCap);
    let movesTop = 0;
    const push = (m) => {
      if (movesTop === movesCap) {
        moves = bigger(moves);
        movesCap *= 2;
      }
      moves[movesTop++] = m;
    };
    function ensureFrames(n) {
      if (n <= frameCap) return;
      const c = frameCap * 2;
      const grown = new Uint8Array((c + 1) * SZ);
      grown.set(mem);
      mem = grown;
      fBase = bigger(fBase);
      fCount = bigger(fCount);
      fCursor = bigger(fCursor);
      fIn = bigger(fIn);
      fIds = bigger(fIds);
      frameCap = c;
    }
    const answer = (outcome, proof, nodes, line) => ({ outcome, proof, nodes, line: line || [] });

    // The root: its key, then its children (made with the sweep when `latent`).
    mem.set(root, SZ);
    insertState(mem, SZ, 127);
    for (let col = 0; col < NCOL; col++) fIds[col] = ids[col];
    for (let k = 0; k < rootMoves.length; k++) {
      applyMove(mem, SZ, 0, rootMoves[k], flags, latent);
      if (won(mem, 0, flags)) return answer('won', null, 1, [rootMoves[k]]);
      if (insertState(mem, 0, 127)) push(rootMoves[k]);
    }
    fBase[0] = 0;
    fCount[0] = movesTop;
    fCursor[0] = 0;
    let depth = 0;
    let nodes = 1;
    let nextCheck = CHECK_EVERY;
    const empties = new Int32Array(NCOL);
    const buf = new Int32Array(MAX_MOVES);
    const ordered = new Int32Array(MAX_MOVES + 1);
    const deadline = began + limits.milliseconds;

    for (;;) {
      if (depth < 0) return answer('lost', 'exhausted', nodes);
      ensureFrames(depth + 2);
      if (fCursor[depth] === fCount[depth]) {
        movesTop = fBase[depth];
        depth--;
        continue;
      }
      const m = moves[fBase[depth] + fCursor[depth]++];
      const here = (depth + 2) * SZ;
      const touched = applyMove(mem, here - SZ, here, m, flags, depth === 0 && latent);
      const nempty = emptyTargets(mem, here, empties);
      const nbuf = movesOf(mem, here, flags, empties, nempty, buf);
      const avail = available;
      if (!avail && !mem[here + NSTOCK]) continue; // the game is lost there
      if (nodes >= maxNodes) return answer('unknown', 'nodes', nodes);
      nodes++;
      if (nodes >= nextCheck) {
        nextCheck += CHECK_EVERY;
        if (limits.progress) limits.progress(nodes);
        if (memoryUsed() > limits.memory) return answer('unknown', 'memory', nodes);
        if (Date.now() > deadline) return answer('unknown', 'time', nodes);
      }
      // This state's column numbers: its parent's, with the columns its move changed again.
      const to = (depth + 1) * NCOL;
      for (let col = 0; col < NCOL; col++) {
        const id = touched >> col & 1 ? columnNumber(mem, here, col) : fIds[to - NCOL + col];
        fIds[to + col] = id;
        parentIds[col] = id;
      }
      const deal = mem[here + NSTOCK] && ((flags & F_ANY_TIME) || !avail);
      const n = orderMoves(mem, here, buf, nbuf, deal, ordered, true);
      const base = movesTop;
      for (let k = 0; k < n; k++) {
        const r = child(here, ordered[k]);
        if (r === 2) {
          const line = [];
          for (let d = 1; d <= depth; d++) line.push(fIn[d]);
          line.push(m, ordered[k]);
          return answer('won', null, nodes, line);
        }
        if (r) push(ordered[k]);
      }
      depth++;
      fBase[depth] = base;
      fCount[depth] = movesTop - base;
      fCursor[depth] = 0;
      fIn[depth] = m;
    }
  }

  // The protocol's actions of a line of packed moves from the root (the first made with the
  // sweep when `latent`, as the search made it).
  function lineOf(root, flags, latent, list) {
    const two = new Uint8Array(2 * SZ);
    two.set(root);
    return list.map((m, k) => {
      const action = m === DEAL ? { type: 'deal' }
        : { type: 'move', card: cardName(two[at(m >> 16) + ((m >> 8) & 255)]), to: (m & 255) + 1 };
      applyMove(two, 0, SZ, m, flags, latent && k === 0);
      two.copyWithin(0, SZ, 2 * SZ);
      return action;
    });
  }

  // The adapter's `solve`: a search within `budget` positions, capped as above.
  function solve(position, rules, budget) {
    return search(position, rules, { nodes: Math.min(budget, MAX_POSITIONS), milliseconds: MAX_MILLISECONDS });
  }

  return { solve, search, flagsOf, MAX_POSITIONS, MAX_MILLISECONDS, CHECK_EVERY, NO };
}));
