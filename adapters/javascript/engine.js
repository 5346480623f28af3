'use strict';
// A Scorpion Solitaire engine for every option of the rule vocabulary.
// Positions use the protocol v1 shape: {columns:[{down,up}x7], stock, removed}.
// The option names, their values, the named rule sets, the reason codes and the card
// alphabet come from vocabulary.js, which is generated from scorpion_ref/vocabulary.json.
// The engine reads options, never rule set names. It loads under Node (require), in a
// page (<script>, as ScorpionEngine, after vocabulary.js) and in a Web Worker.
(function (root, make) {
  if (typeof module === 'object' && module.exports) module.exports = make(require('./vocabulary.js'));
  else root.ScorpionEngine = make(root.ScorpionVocabulary);
}(typeof self !== 'undefined' ? self : this, function (V) {
  const RANKS = V.ranks.map((r) => r.letter).join('');
  const SUITS = V.suits.map((s) => s.letter).join('');
  const KING = RANKS.length - 1;
  const ACE = 0;
  const RUN_LENGTH = RANKS.length;
  const COLUMNS = 7;

  class EngineError extends Error {
    constructor(code, message, reason) {
      super(message);
      this.code = code;
      if (reason) this.reason = reason;
    }
  }

  const isCard = (c) => typeof c === 'string' && c.length === 2 &&
    RANKS.includes(c[0]) && SUITS.includes(c[1]);
  const rank = (c) => RANKS.indexOf(c[0]); // 0 = Ace ... 12 = King
  const suit = (c) => c[1];
  const cardOf = (r, s) => RANKS[r] + s;
  // A card as people write it: "10♦".
  const say = (c) => V.ranks[rank(c)].label + V.suits[SUITS.indexOf(suit(c))].symbol;

  // -- rule sets ----------------------------------------------------------------------

  // A rule set: its name and one value for every option (those with a default may be left
  // out). Throws EngineError('unsupported') for an unknown option or value.
  function ruleSet(name, options) {
    const rules = { name };
    for (const key of Object.keys(options)) {
      if (!V.options.some((o) => o.name === key)) throw new EngineError('unsupported', `rule set ${name}: unknown option ${key}`);
    }
    for (const option of V.options) {
      const value = option.name in options ? options[option.name] : option.default;
      if (value === undefined) throw new EngineError('unsupported', `rule set ${name}: missing option ${option.name}`);
      if (!option.values.includes(value)) {
        throw new EngineError('unsupported', `rule set ${name}: ${option.name} must be one of ${option.values.join(', ')}, not ${JSON.stringify(value)}`);
      }
      rules[option.name] = value;
    }
    return Object.freeze(rules);
  }

  // The options these rules read, each where it changes a rule. An option the vocabulary gained
  // later can only be played at its default: a rule set that gives it another value is not offered.
  const READS = new Set(['runs', 'stock', 'empty_column', 'whole_column_to_empty', 'win', 'finished_run_moves']);
  const playable = (rules) => V.options.every((o) => READS.has(o.name) || rules[o.name] === o.default);

  // The named rule sets this engine plays, by name, in the vocabulary's order.
  const NAMED = Object.freeze(Object.fromEntries(V.rulesets
    .map((s) => [s.name, ruleSet(s.name, s.options)]).filter(([, rules]) => playable(rules))));

  // The named rule sets, then every other combination of the options it reads, named by the values
  // where it differs from each option's first value ("stay/any"), as the reference's
  // --all-bundles names them.
  function everyBundle() {
    const bundles = { ...NAMED };
    const named = new Set(Object.values(NAMED).map((r) => V.options.map((o) => r[o.name]).join('|')));
    let combos = [[]];
    for (const option of V.options) {
      const values = READS.has(option.name) ? option.values : [option.default];
      combos = combos.flatMap((c) => values.map((v) => [...c, v]));
    }
    for (const values of combos) {
      if (named.has(values.join('|'))) continue;
      const name = values.filter((v, i) => v !== V.options[i].values[0]).join('/');
      bundles[name] = ruleSet(name, Object.fromEntries(V.options.map((o, i) => [o.name, values[i]])));
    }
    return bundles;
  }

  // -- positions ------------------------------------------------------------------------

  function invalid(message) {
    return new EngineError('invalid-position', message);
  }

  // Check a position and return a clean deep copy of it; throws invalid-position.
  function validatePosition(pos) {
    if (!pos || typeof pos !== 'object' || Array.isArray(pos)) throw invalid('position must be an object');
    const extra = Object.keys(pos).filter((k) => !['columns', 'stock', 'removed'].includes(k));
    if (extra.length) throw invalid(`a position has no field ${extra.join(', ')}`);
    for (const k of ['columns', 'stock', 'removed']) if (!(k in pos)) throw invalid(`a position needs the field ${k}`);
    const { columns, stock, removed } = pos;
    if (!Array.isArray(columns) || columns.length !== COLUMNS) throw invalid('there must be exactly seven columns');
    if (!Array.isArray(stock)) throw invalid('stock must be an array');
    if (stock.length > 3) throw invalid('the stock holds more than three cards');
    if (!Array.isArray(removed)) throw invalid('removed must be an array');
    for (const s of removed) {
      if (typeof s !== 'string' || s.length !== 1 || !SUITS.includes(s)) throw invalid(`not a suit in removed: ${JSON.stringify(s)}`);
    }
    const seen = new Set();
    const see = (c) => {
      if (!isCard(c)) throw invalid(`not a card: ${JSON.stringify(c)}`);
      if (seen.has(c)) throw invalid(`card appears twice: ${c}`);
      if (removed.includes(suit(c))) throw invalid(`card ${c} belongs to a removed suit`);
      seen.add(c);
    };
    columns.forEach((col, i) => {
      if (!col || typeof col !== 'object' || !Array.isArray(col.down) || !Array.isArray(col.up)) {
        throw invalid(`column ${i + 1} must be an object with arrays "down" and "up"`);
      }
      col.down.forEach(see);
      col.up.forEach(see);
      if (col.down.length > 0 && col.up.length === 0) throw invalid(`column ${i + 1} has face-down cards and no face-up card`);
    });
    stock.forEach(see);
    return {
      columns: columns.map((c) => ({ down: [...c.down], up: [...c.up] })),
      stock: [...stock],
      removed: sortSuits(new Set(removed)), // a suit listed twice is the same set
    };
  }

  const sortSuits = (suits) => SUITS.split('').filter((s) => suits.has(s));
  const copy = (pos) => ({
    columns: pos.columns.map((c) => ({ down: [...c.down], up: [...c.up] })),
    stock: [...pos.stock],
    removed: [...pos.removed],
  });

  // Where a face-up card lies: {col, index}, or null.
  function locate(pos, card) {
    for (let c = 0; c < COLUMNS; c++) {
      const i = pos.columns[c].up.indexOf(card);
      if (i >= 0) return { col: c, index: i };
    }
    return null;
  }

  // Is up[i .. i+13) one suit from King down to Ace?
  function isRunAt(up, i) {
    if (i + RUN_LENGTH > up.length || rank(up[i]) !== KING) return false;
    for (let k = 0; k < RUN_LENGTH; k++) {
      if (suit(up[i + k]) !== suit(up[i]) || rank(up[i + k]) !== KING - k) return false;
    }
    return true;
  }

  // Where complete runs start in a column's face-up cards (non-overlapping, bottom first).
  function completeRuns(up) {
    const starts = [];
    let i = 0;
    while (i + RUN_LENGTH <= up.length) {
      if (isRunAt(up, i)) {
        starts.push(i);
        i += RUN_LENGTH;
      } else {
        i += 1;
      }
    }
    return starts;
  }

  const inCompleteRun = (up, index) => completeRuns(up).some((s) => s <= index && index < s + RUN_LENGTH);

  // Whether a move of the card at (col, index) to the empty column `to` takes a whole column.
  const isWholeColumn = (pos, col, index, to) =>
    index === 0 && pos.columns[col].down.length === 0 && pos.columns[to].up.length === 0;

  // -- judging one action -----------------------------------------------------------------

  const refuse = (reason, message) => ({ reason, message });

  // Why `action` is refused, as {reason, message}, or null when it is legal.
  function refusal(pos, rules, action) {
    if (action.type === 'deal') {
      if (pos.stock.length === 0) return refuse('stock-empty', 'the stock has already been dealt');
      if (rules.stock === 'when-stuck') {
        const moves = availableMoves(pos, rules);
        if (moves.length) {
          return refuse('stock-locked', 'the stock is dealt only when no other move is left ' +
            `(${moves.length} available, for example ${say(moves[0].card)} to column ${moves[0].to})`);
        }
      }
      return null;
    }
    const card = action.card;
    const where = locate(pos, card);
    if (where === null) {
      if (pos.columns.some((c) => c.down.includes(card))) return refuse('card-face-down', `${say(card)} is face down: it cannot move`);
      if (pos.stock.includes(card)) return refuse('card-in-stock', `${say(card)} is in the stock: only the deal plays it`);
      return refuse('card-not-in-play', `${say(card)} is not on the table`);
    }
    const dest = action.to - 1;
    if (dest === where.col) return refuse('destination-is-source', `${say(card)} is already in column ${action.to}`);
    const up = pos.columns[dest].up;
    if (up.length === 0) {
      if (rules.empty_column === 'king' && rank(card) !== KING) {
        return refuse('empty-column-needs-king', `an empty column takes only a King, and ${say(card)} leads this group`);
      }
      if (rules.whole_column_to_empty === 'refused' && isWholeColumn(pos, where.col, where.index, dest)) {
        return refuse('whole-column-to-empty', `${say(card)} and its passengers are the whole of column ${where.col + 1}: ` +
          'moving them to an empty column changes nothing');
      }
      return null;
    }
    const target = up[up.length - 1];
    if (rank(card) === KING) {
      return refuse(suit(target) !== suit(card) ? 'not-same-suit' : 'not-one-rank-lower', `${say(card)} goes only to an empty column`);
    }
    const needed = cardOf(rank(card) + 1, suit(card));
    if (suit(target) !== suit(card)) return refuse('not-same-suit', `${say(card)} goes only on ${say(needed)}, not on ${say(target)}`);
    if (rank(target) !== rank(card) + 1) return refuse('not-one-rank-lower', `${say(card)} goes only on ${say(needed)}, not on ${say(target)}`);
    return null;
  }

  // -- generating every legal action --------------------------------------------------------

  // Every legal move (not the deal), by source column, card and destination; each is
  // {type, card, to} with hidden fields col and index.
  function legalMoves(pos, rules) {
    const found = [];
    const faceup = new Map();
    pos.columns.forEach((column, col) => column.up.forEach((card, index) => faceup.set(card, [col, index])));
    pos.columns.forEach((column, dest) => {
      const up = column.up;
      if (up.length === 0) {
        for (const [card, [source, index]] of faceup) {
          if (rules.empty_column === 'king' && rank(card) !== KING) continue;
          if (rules.whole_column_to_empty === 'refused' && index === 0 && pos.columns[source].down.length === 0) continue;
          found.push([source, index, dest]);
        }
      } else {
        const target = up[up.length - 1];
        if (rank(target) === ACE) return;
        const where = faceup.get(cardOf(rank(target) - 1, suit(target)));
        if (where !== undefined && where[0] !== dest) found.push([where[0], where[1], dest]);
      }
    });
    found.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
    return found.map(([s, i, d]) => ({ type: 'move', card: pos.columns[s].up[i], to: d + 1 }));
  }

  // The legal moves that count as available, for the stock lock and for losing: not a
  // whole-column transfer and, under runs: stay with finished_run_moves: ignored, not a move
  // that takes cards out of a complete run.
  function availableMoves(pos, rules, legal) {
    return (legal || legalMoves(pos, rules)).filter((move) => {
      const { col, index } = locate(pos, move.card);
      if (isWholeColumn(pos, col, index, move.to - 1)) return false;
      return !(rules.runs === 'stay' && rules.finished_run_moves === 'ignored' && inCompleteRun(pos.columns[col].up, index));
    });
  }

  // Every legal action: the moves, then the deal when it is legal.
  function legalActions(pos, rules) {
    const moves = legalMoves(pos, rules);
    if (pos.stock.length && (rules.stock === 'any-time' || availableMoves(pos, rules, moves).length === 0)) {
      return [...moves, { type: 'deal' }];
    }
    return moves;
  }

  // -- applying an action --------------------------------------------------------------------

  // The top face-down card turns up when no face-up card is left on it.
  function expose(col, flipped) {
    if (col.up.length === 0 && col.down.length > 0) {
      const card = col.down.pop();
      col.up.push(card);
      flipped.push(card);
    }
  }

  // Play a legal action: {position, flipped, collected} (the cards turned face up and the
  // suits collected); throws EngineError('illegal-action') with the reason when refused.
  function apply(pos, rules, action) {
    const why = refusal(pos, rules, action);
    if (why) throw new EngineError('illegal-action', why.message, why.reason);
    const next = copy(pos);
    const flipped = [];
    const collected = [];
    if (action.type === 'deal') {
      next.stock.forEach((card, i) => next.columns[i].up.push(card));
      next.stock = [];
    } else {
      const { col, index } = locate(next, action.card);
      const group = next.columns[col].up.splice(index);
      expose(next.columns[col], flipped);
      next.columns[action.to - 1].up.push(...group);
    }
    if (rules.runs === 'collect') {
      for (const column of next.columns) {
        while (column.up.length >= RUN_LENGTH && isRunAt(column.up, column.up.length - RUN_LENGTH)) {
          collected.push(suit(column.up[column.up.length - 1]));
          column.up.splice(column.up.length - RUN_LENGTH);
          expose(column, flipped);
        }
      }
      next.removed = sortSuits(new Set([...next.removed, ...collected]));
    }
    return { position: next, flipped, collected };
  }

  // -- status ----------------------------------------------------------------------------------

  function won(pos, rules) {
    if (rules.runs === 'collect') return pos.removed.length === SUITS.length;
    if (rules.win === 'four-runs') {
      return pos.columns.reduce((n, c) => n + completeRuns(c.up).length, 0) >= SUITS.length;
    }
    return pos.stock.length === 0 && pos.columns.every((c) => c.up.length === 0 ||
      (c.down.length === 0 && c.up.length === RUN_LENGTH && isRunAt(c.up, 0)));
  }

  // 'won' as the rules' win condition says; 'lost' when no available action remains.
  function status(pos, rules) {
    if (won(pos, rules)) return 'won';
    if (pos.stock.length || availableMoves(pos, rules).length) return 'playing';
    return 'lost';
  }

  // A game: a start position, a rule set and the positions since, for undo.
  class Game {
    constructor(position, rules = NAMED.standard) {
      this.rules = rules;
      this.positions = [validatePosition(position)];
      this.actions = [];
    }

    get pos() { return this.positions[this.positions.length - 1]; }
    legal() { return legalActions(this.pos, this.rules); }
    status() { return status(this.pos, this.rules); }
    state() { return { ...copy(this.pos), status: this.status() }; }

    // Play an action whose shape is checked (see checkAction); returns {flipped, collected}.
    play(action) {
      const outcome = apply(this.pos, this.rules, action);
      this.positions.push(outcome.position);
      this.actions.push(action);
      return outcome;
    }

    undo() {
      if (this.actions.length === 0) throw new EngineError('nothing-to-undo', 'there is nothing to undo: no action has been played');
      this.positions.pop();
      this.actions.pop();
    }
  }

  // Shape check for an action; returns an error message or null (bad-request).
  function checkAction(action) {
    if (!action || typeof action !== 'object' || Array.isArray(action)) return 'action must be an object';
    if (action.type === 'deal') return null;
    if (action.type !== 'move') return `unknown action type: ${JSON.stringify(action.type)}`;
    if (!isCard(action.card)) return `not a card: ${JSON.stringify(action.card)}`;
    if (!Number.isInteger(action.to) || action.to < 1 || action.to > COLUMNS) return `"to" must be an integer from 1 to 7, got ${JSON.stringify(action.to)}`;
    return null;
  }

  return {
    Game, EngineError, NAMED, READS, RANKS, SUITS, RUN_LENGTH, COLUMNS,
    ruleSet, everyBundle, validatePosition, checkAction, isCard, say, rank, suit,
    locate, completeRuns, refusal, legalActions, availableMoves, apply, status, won,
  };
}));
