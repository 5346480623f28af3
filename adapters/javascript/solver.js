'use strict';
// A small solver for the `solve` capability: a depth-first search with a
// transposition table, over this adapter's own engine (engine.js), within a
// budget of positions.
//
// Why its answers are sound:
// - won: the line is the path the search took, each step an action the engine
//   listed as legal, ending in a position whose status is won; the protocol's
//   `play` replays exactly these actions.
// - lost: given only when the search ran out of positions to try before the
//   budget did. Each position is expanded at most once (the table holds every
//   position seen, by its full contents), so the search is a plain graph
//   search of everything reachable: no reachable position is won.
// - unknown: the budget (or the table's cap, or the time allowed) ran out first.
// The search tries moves that turn a face-down card over first, and the deal
// last; the order changes how fast it finds a line, never what it answers.

const { Game, SUITS } = require('./engine.js');

// The most positions one search keeps in its table, whatever the budget asks, and the
// longest it runs (well within the harness's wait for an answer): past either, unknown.
const MAX_POSITIONS = 1000000;
const MAX_MILLISECONDS = 20000;

const copyPos = (pos) => ({
  columns: pos.columns.map((c) => ({ down: [...c.down], up: [...c.up] })),
  stock: [...pos.stock],
  removed: [...pos.removed],
});

// Everything that makes a position, as one string: the table's key.
const key = (pos) => pos.columns.map((c) => `${c.down.join('')}|${c.up.join('')}`).join('/') +
  `#${pos.stock.join('')}#${[...pos.removed].sort().join('')}`;

// A game over `pos` without checking it again (it came from a checked position).
function gameAt(pos) {
  const game = Object.create(Game.prototype);
  game.pos = copyPos(pos);
  game.history = null; // no undo record
  return game;
}

const isWon = (pos) => SUITS.split('').every((s) => pos.removed.includes(s));

// How promising an action is (lower first): a move that uncovers a face-down
// card, then other moves, then the deal.
function rankOf(pos, action) {
  if (action.type === 'deal') return 2;
  for (const col of pos.columns) {
    if (col.up[0] === action.card) return col.down.length > 0 ? 0 : 1;
  }
  return 1;
}

function ordered(game, legal) {
  return legal
    .map((action, i) => [rankOf(game.pos, action), i, action])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map(([, , action]) => action);
}

// Solve `position` (a checked protocol position) within `budget` positions expanded.
// Returns {outcome: 'won'|'lost'|'unknown', line?, nodes, proof?}.
function solve(position, budget) {
  const limit = Math.min(budget, MAX_POSITIONS);
  const deadline = Date.now() + MAX_MILLISECONDS;
  const start = gameAt(position);
  // The engine's status, from one listing of the legal actions: won, else lost when none.
  const startLegal = start.legal();
  if (isWon(start.pos)) return { outcome: 'won', line: [], nodes: 0 };
  if (startLegal.length === 0) return { outcome: 'lost', nodes: 0, proof: 'no-move' };
  const seen = new Set([key(start.pos)]);
  const stack = [{ game: start, actions: ordered(start, startLegal), next: 0 }];
  const line = [];
  let nodes = 1;
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.next >= top.actions.length) {
      stack.pop();
      line.pop();
      continue;
    }
    const action = top.actions[top.next++];
    const child = gameAt(top.game.pos);
    child.play(action);
    const childKey = key(child.pos);
    if (seen.has(childKey)) continue;
    if (isWon(child.pos)) return { outcome: 'won', line: [...line, action], nodes };
    seen.add(childKey);
    const legal = child.legal();
    if (legal.length === 0) continue; // lost there
    if (nodes >= limit) return { outcome: 'unknown', nodes, proof: 'nodes' };
    nodes += 1;
    if (nodes % 1000 === 0 && Date.now() > deadline) return { outcome: 'unknown', nodes, proof: 'time' };
    stack.push({ game: child, actions: ordered(child, legal), next: 0 });
    line.push(action);
  }
  return { outcome: 'lost', nodes, proof: 'exhausted' };
}

module.exports = { solve, MAX_POSITIONS, MAX_MILLISECONDS };
