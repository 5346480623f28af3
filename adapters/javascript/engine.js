'use strict';
// A small Scorpion Solitaire engine implementing the `standard` rule set.
// Positions use the protocol v1 shape: {columns:[{down,up}x7], stock, removed}.

const RANKS = 'A23456789TJQK';
const SUITS = 'CDHS';

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
const clone = (x) => JSON.parse(JSON.stringify(x));

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
  if (!Array.isArray(columns) || columns.length !== 7) throw invalid('there must be exactly seven columns');
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
    removed: [...new Set(removed)], // a suit listed twice is the same set
  };
}

class Game {
  constructor(position) {
    this.pos = validatePosition(position);
    this.history = [];
  }

  // Where is a card? {col, index} for face-up cards, or a reason string.
  locate(card) {
    for (let c = 0; c < 7; c++) {
      const { down, up } = this.pos.columns[c];
      const i = up.indexOf(card);
      if (i >= 0) return { col: c, index: i };
      if (down.includes(card)) return 'card-face-down';
    }
    if (this.pos.stock.includes(card)) return 'card-in-stock';
    return 'card-not-in-play';
  }

  // Reason a move of a face-up card (at col/index) to column `to` (0-based) is refused, or null.
  refusal(from, index, to) {
    if (from === to) return 'destination-is-source';
    const card = this.pos.columns[from].up[index];
    const dest = this.pos.columns[to].up;
    if (dest.length === 0) {
      if (rank(card) !== 12) return 'empty-column-needs-king';
      if (index === 0 && this.pos.columns[from].down.length === 0) return 'whole-column-to-empty';
      return null;
    }
    const top = dest[dest.length - 1];
    if (suit(top) !== suit(card)) return 'not-same-suit';
    if (rank(top) !== rank(card) + 1) return 'not-one-rank-lower';
    return null;
  }

  legal() {
    const actions = [];
    this.pos.columns.forEach((col, from) => {
      col.up.forEach((card, index) => {
        for (let to = 0; to < 7; to++) {
          if (this.refusal(from, index, to) === null) actions.push({ type: 'move', card, to: to + 1 });
        }
      });
    });
    if (this.pos.stock.length > 0) actions.push({ type: 'deal' });
    return actions;
  }

  status() {
    if (SUITS.split('').every((s) => this.pos.removed.includes(s))) return 'won';
    return this.legal().length === 0 ? 'lost' : 'playing';
  }

  state() {
    return { ...clone(this.pos), status: this.status() };
  }

  // Apply an action that has already been checked for shape (see checkAction).
  // A game whose history is null (a solver's scratch game) keeps no undo record.
  play(action) {
    const before = this.history === null ? null : clone(this.pos);
    if (action.type === 'deal') {
      if (this.pos.stock.length === 0) throw new EngineError('illegal-action', 'the stock is empty', 'stock-empty');
      this.pos.stock.forEach((card, i) => this.pos.columns[i].up.push(card));
      this.pos.stock = [];
    } else {
      const where = this.locate(action.card);
      if (typeof where === 'string') throw new EngineError('illegal-action', `${action.card} cannot be moved (${where})`, where);
      const reason = this.refusal(where.col, where.index, action.to - 1);
      if (reason) throw new EngineError('illegal-action', `${action.card} cannot move to column ${action.to} (${reason})`, reason);
      const source = this.pos.columns[where.col];
      const group = source.up.splice(where.index);
      this.pos.columns[action.to - 1].up.push(...group);
      flip(source);
    }
    collectRuns(this.pos);
    if (this.history !== null) this.history.push(before);
  }

  undo() {
    if (this.history.length === 0) throw new EngineError('nothing-to-undo', 'there is nothing to undo');
    this.pos = this.history.pop();
  }
}

// Turn the top face-down card face up when no face-up card is left.
function flip(col) {
  if (col.up.length === 0 && col.down.length > 0) col.up.push(col.down.pop());
}

// Is the top of `up` a complete K..A run of one suit (King deepest)?
function topRun(up) {
  if (up.length < 13) return false;
  const run = up.slice(-13);
  return run.every((c, i) => suit(c) === suit(run[0]) && rank(c) === 12 - i);
}

// Remove every complete run, repeatedly, flipping newly exposed cards.
function collectRuns(pos) {
  let changed = true;
  while (changed) {
    changed = false;
    for (const col of pos.columns) {
      if (topRun(col.up)) {
        const run = col.up.splice(col.up.length - 13);
        pos.removed.push(suit(run[0]));
        flip(col);
        changed = true;
      }
    }
  }
}

// Shape check for an action; returns an error message or null (bad-request).
function checkAction(action) {
  if (!action || typeof action !== 'object' || Array.isArray(action)) return 'action must be an object';
  if (action.type === 'deal') return null;
  if (action.type !== 'move') return `unknown action type: ${JSON.stringify(action.type)}`;
  if (!isCard(action.card)) return `not a card: ${JSON.stringify(action.card)}`;
  if (!Number.isInteger(action.to) || action.to < 1 || action.to > 7) return `"to" must be an integer from 1 to 7, got ${JSON.stringify(action.to)}`;
  return null;
}

module.exports = { Game, EngineError, validatePosition, checkAction, isCard, RANKS, SUITS };
