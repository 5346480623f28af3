'use strict';
// Run with: node --test adapters/javascript/
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { Game, NAMED, validatePosition } = require('./engine.js');
const { solve: solveUnder } = require('./solver.js');

const solve = (pos, budget, rules = NAMED.standard) => solveUnder(pos, rules, budget);

const ADAPTER = path.join(__dirname, 'adapter.js');

function position(cols, stock = [], removed = []) {
  const columns = [];
  for (let i = 1; i <= 7; i++) columns.push({ down: [], up: [], ...(cols[i] || {}) });
  return validatePosition({ columns, stock, removed });
}

function replaysToWon(pos, line, rules = NAMED.standard) {
  const g = new Game(pos, rules);
  for (const action of line) g.play(action);
  return g.status() === 'won';
}

// The spades from the King (deepest) down to `low`.
const SPADES_TO = (low) => 'KQJT98765432A'.slice(0, 'KQJT98765432A'.indexOf(low) + 1).split('').map((r) => `${r}S`);

test('a position one move from the win is won, and the line replays', () => {
  const pos = position({ 1: { up: SPADES_TO('2') }, 2: { up: ['AS'] } }, [], ['C', 'D', 'H']);
  const answer = solve(pos, 100);
  assert.strictEqual(answer.outcome, 'won');
  assert.deepStrictEqual(answer.line, [{ type: 'move', card: 'AS', to: 1 }]);
  assert.ok(replaysToWon(pos, answer.line));
});

test('dealing too early loses: the solver moves 3S first, then deals', () => {
  // Dealing at once buries 3S under 7S and 8S under 2S; moving 3S onto 4S first wins.
  const pos = position({ 1: { up: SPADES_TO('8') }, 3: { up: ['3S'] }, 7: { up: ['6S', '5S', '4S'] } },
    ['2S', 'AS', '7S'], ['C', 'D', 'H']);
  const answer = solve(pos, 10000);
  assert.strictEqual(answer.outcome, 'won');
  assert.ok(replaysToWon(pos, answer.line));
  const dealt = new Game(pos);
  dealt.play({ type: 'deal' });
  assert.strictEqual(solve(dealt.pos, 10000).outcome, 'lost');
});

test('a position that cannot be won is lost, by a theorem or an exhausted search', () => {
  // The spades 4 to Q are not in play, so no line can complete the run, though moves remain.
  const missing = position({ 1: { up: ['3S', 'KS', '2S'] }, 2: { up: ['AS'] } }, [], ['C', 'D', 'H']);
  assert.deepStrictEqual(solve(missing, 1000), { outcome: 'lost', nodes: 0, proof: 'missing-cards' });
  // Every spade is here, but no order of moves untangles them (the reference proves it in 14 positions).
  const stuck = position({ 1: { up: ['KS', 'QS', '2S', '7S', 'AS', '5S'] }, 2: { up: ['JS', '8S', '6S', '3S'] },
    3: { up: ['9S', 'TS', '4S'] } }, [], ['C', 'D', 'H']);
  assert.deepStrictEqual(solve(stuck, 1000), { outcome: 'lost', nodes: 14, proof: 'exhausted' });
});

test('under classic a finished run stays, and four runs on the table win', () => {
  const runs = ['C', 'D', 'H'].map((s) => 'KQJT98765432A'.split('').map((r) => r + s));
  const pos = position({ 1: { up: runs[0] }, 2: { up: runs[1] }, 3: { up: runs[2] }, 4: { up: SPADES_TO('2') }, 5: { up: ['AS'] } });
  const answer = solve(pos, 100, NAMED.classic);
  assert.strictEqual(answer.outcome, 'won');
  assert.ok(replaysToWon(pos, answer.line, NAMED.classic));
  assert.strictEqual(new Game(pos, NAMED.classic).state().removed.length, 0);
});

test('a search cut short by its budget answers unknown, never lost', () => {
  const pos = position({ 1: { up: SPADES_TO('8') }, 3: { up: ['3S'] }, 7: { up: ['6S', '5S', '4S'] } },
    ['2S', 'AS', '7S'], ['C', 'D', 'H']);
  for (let budget = 1; budget <= 3; budget++) {
    assert.notStrictEqual(solve(pos, budget).outcome, 'lost', `budget ${budget}`);
  }
});

test('the adapter answers solve, and refuses it without a game or a budget', () => {
  const pos = position({ 1: { up: SPADES_TO('2') }, 2: { up: ['AS'] } }, [], ['C', 'D', 'H']);
  const lines = [
    { cmd: 'hello', protocol: 1 },
    { cmd: 'solve', budget: 5 },
    { cmd: 'start', rules: 'standard', position: pos },
    { cmd: 'solve', budget: 5, id: 9 },
    { cmd: 'solve' },
    { cmd: 'solve', budget: 0 },
  ].map((l) => JSON.stringify(l)).join('\n') + '\n';
  const r = spawnSync(process.execPath, [ADAPTER], { input: lines, encoding: 'utf8' });
  const [hello, early, , answer, missing, zero] = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  assert.ok(hello.capabilities.includes('solve'));
  assert.strictEqual(early.error.code, 'bad-request');
  assert.strictEqual(answer.outcome, 'won');
  assert.strictEqual(answer.id, 9);
  assert.strictEqual(missing.error.code, 'bad-request');
  assert.strictEqual(zero.error.code, 'bad-request');
});
