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
// - unknown: the budget (or the table's cap) ran out first.
// The search tries moves that turn a face-down card over first, and the deal
// last; the order changes how fast it finds a line, never what it answers.

const { Game } = require('./engine.js');

// The most positions one search keeps in its table, whatever the budget asks.
const MAX_POSITIONS = 1000000;

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
  game.history = [];
  return game;
}

// How promising an action is (lower first): a move that uncovers a face-down
// card, then other moves, then the deal.
function rankOf(pos, action) {
  if (action.type === 'deal') return 2;
  for (const col of pos.columns) {
    if (col.up[0] === action.card) return col.down.length > 0 ? 0 : 1;
  }
  return 1;
}

function ordered(game) {
  return game.legal()
    .map((action, i) => [rankOf(game.pos, action), i, action])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map(([, , action]) => action);
}

// Solve `position` (a checked protocol position) within `budget` positions expanded.
// Returns {outcome: 'won'|'lost'|'unknown', line?, nodes, proof?}.
function solve(position, budget) {
  const limit = Math.min(budget, MAX_POSITIONS);
  const start = gameAt(position);
  const first = start.status();
  if (first === 'won') return { outcome: 'won', line: [], nodes: 0 };
  if (first === 'lost') return { outcome: 'lost', nodes: 0, proof: 'no-move' };
  const seen = new Set([key(start.pos)]);
  const stack = [{ game: start, actions: ordered(start), next: 0 }];
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
    const verdict = child.status();
    if (verdict === 'won') return { outcome: 'won', line: [...line, action], nodes };
    seen.add(childKey);
    if (verdict === 'lost') continue;
    if (nodes >= limit) return { outcome: 'unknown', nodes, proof: 'nodes' };
    nodes += 1;
    stack.push({ game: child, actions: ordered(child), next: 0 });
    line.push(action);
  }
  return { outcome: 'lost', nodes, proof: 'exhausted' };
}

module.exports = { solve, MAX_POSITIONS };
