'use strict';
// Run with: node --test adapters/javascript/
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { Game, READS } = require('./engine.js');
const V = require('./vocabulary.js');

const ADAPTER = path.join(__dirname, 'adapter.js');
const SUIT_RUN = (s) => 'KQJT98765432A'.split('').map((r) => r + s); // King deepest, Ace on top

// Build a position from a sparse {colNumber: {down, up}} map.
function position(cols, stock = [], removed = []) {
  const columns = [];
  for (let i = 1; i <= 7; i++) columns.push({ down: [], up: [], ...(cols[i] || {}) });
  return { columns, stock, removed };
}

// Run the adapter on the given request lines; returns parsed responses and exit status.
function runAdapter(lines) {
  const input = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
  const r = spawnSync(process.execPath, [ADAPTER], { input, encoding: 'utf8' });
  const responses = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  return { responses, status: r.status };
}

const illegal = (reason) => (e) => e.code === 'illegal-action' && e.reason === reason;

test('worked example: 9D carrying KH and 4C moves onto TD, and 4S flips', () => {
  const g = new Game(position({ 1: { down: ['4S'], up: ['9D', 'KH', '4C'] }, 5: { up: ['TD'] } }));
  g.play({ type: 'move', card: '9D', to: 5 });
  const s = g.state();
  assert.deepStrictEqual(s.columns[0], { down: [], up: ['4S'] });
  assert.deepStrictEqual(s.columns[4].up, ['TD', '9D', 'KH', '4C']);
  assert.strictEqual(s.status, 'playing'); // KH (not its whole column) may still go to an empty column
  g.undo();
  assert.deepStrictEqual(g.state().columns[0], { down: ['4S'], up: ['9D', 'KH', '4C'] });
  assert.throws(() => g.undo(), (e) => e.code === 'nothing-to-undo');
});

test('a Queen carrying a King is refused on an empty column', () => {
  const g = new Game(position({ 1: { up: ['QH', 'KS'] }, 3: { up: ['5C'] } }));
  assert.throws(() => g.play({ type: 'move', card: 'QH', to: 2 }), illegal('empty-column-needs-king'));
  assert.ok(!g.legal().some((a) => a.card === 'QH'));
});

test('whole-column King transfer is refused and never listed', () => {
  const g = new Game(position({ 1: { up: ['KH', 'QH'] } }));
  assert.throws(() => g.play({ type: 'move', card: 'KH', to: 2 }), illegal('whole-column-to-empty'));
  assert.deepStrictEqual(g.legal(), []);
  assert.strictEqual(g.state().status, 'lost');
  // With a face-down card beneath, the King may go to an empty column.
  const h = new Game(position({ 1: { down: ['2C'], up: ['KH', 'QH'] } }));
  assert.deepStrictEqual(h.legal().filter((a) => a.card === 'KH').length, 6);
});

test('other refusals carry the right reason', () => {
  const g = new Game(position({ 1: { down: ['3C'], up: ['8D', 'AS'] }, 2: { up: ['9H'] }, 3: { up: ['TD'] } }, ['2H']));
  assert.throws(() => g.play({ type: 'move', card: '3C', to: 2 }), illegal('card-face-down'));
  assert.throws(() => g.play({ type: 'move', card: '2H', to: 2 }), illegal('card-in-stock'));
  assert.throws(() => g.play({ type: 'move', card: 'KC', to: 2 }), illegal('card-not-in-play'));
  assert.throws(() => g.play({ type: 'move', card: '8D', to: 1 }), illegal('destination-is-source'));
  assert.throws(() => g.play({ type: 'move', card: '8D', to: 2 }), illegal('not-same-suit'));
  assert.throws(() => g.play({ type: 'move', card: '8D', to: 3 }), illegal('not-one-rank-lower'));
  g.play({ type: 'deal' });
  assert.deepStrictEqual(g.state().columns[0].up, ['8D', 'AS', '2H']);
  assert.throws(() => g.play({ type: 'deal' }), illegal('stock-empty'));
});

test('one move collects two runs (destination and source) and flips', () => {
  const hearts = SUIT_RUN('H');
  const g = new Game(position({
    1: { up: SUIT_RUN('S').slice(0, 12) }, // K..2 of spades
    2: { down: ['5C'], up: [...hearts, 'AS'] }, // complete hearts run under AS
  }));
  g.play({ type: 'move', card: 'AS', to: 1 });
  const s = g.state();
  assert.deepStrictEqual(s.removed.sort(), ['H', 'S']);
  assert.deepStrictEqual(s.columns[0], { down: [], up: [] });
  assert.deepStrictEqual(s.columns[1], { down: [], up: ['5C'] });
  g.undo();
  assert.deepStrictEqual(g.state().removed, []);
});

test('a stock card completing a run is collected on the deal', () => {
  const g = new Game(position({ 1: { down: ['9D'], up: SUIT_RUN('C').slice(0, 12) } }, ['AC', '3D']));
  g.play({ type: 'deal' });
  const s = g.state();
  assert.deepStrictEqual(s.removed, ['C']);
  assert.deepStrictEqual(s.columns[0], { down: [], up: ['9D'] });
  assert.deepStrictEqual(s.columns[1].up, ['3D']);
  assert.deepStrictEqual(s.stock, []);
});

test('won when all four suits are removed; start does not flip or collect', () => {
  assert.strictEqual(new Game(position({}, [], ['C', 'D', 'H', 'S'])).state().status, 'won');
  const g = new Game(position({ 1: { up: SUIT_RUN('D') } }));
  assert.deepStrictEqual(g.state().removed, []);
});

test('invalid positions are refused', () => {
  const bad = [
    position({ 1: { up: ['9D', '9D'] } }),
    position({ 1: { up: ['1D'] } }),
    position({ 1: { down: ['9D'] } }),
    position({}, ['2C', '3C', '4C', '5C']),
    { columns: [], stock: [], removed: [] },
    position({ 1: { up: ['9D'] } }, [], ['D']),
  ];
  for (const p of bad) assert.throws(() => new Game(p), (e) => e.code === 'invalid-position');
});

test('adapter: bad requests are answered and serving continues', () => {
  const { responses, status } = runAdapter([
    { cmd: 'state' }, // before hello
    { cmd: 'hello', protocol: 1 },
    'this is not json',
    { cmd: 'state' },
    { cmd: 'frobnicate' },
    { cmd: 'start', position: position({}) },
    { cmd: 'start', rules: 'standard', position: position({ 1: { up: ['KH', 'QH'] } }) },
    { cmd: 'play', action: { type: 'move', card: 'ZZ', to: 2 } },
    { cmd: 'play', action: { type: 'move', card: 'KH', to: 8 } },
    { cmd: 'play', action: { type: 'fly' } },
    { cmd: 'play' },
    { cmd: 'play', action: { type: 'move', card: 'KH', to: 2 } },
    { cmd: 'start', rules: 'spider', position: position({}) },
    { cmd: 'start', rules: { name: 'standard' }, position: position({}) },
    { cmd: 'start', rules: 'classic', position: position({}) },
    { cmd: 'undo' },
    { cmd: 'start', rules: 'stay/when-stuck', position: position({}) },
    { cmd: 'quit' },
    { cmd: 'state' }, // after quit: not answered
  ]);
  assert.strictEqual(status, 0);
  const codes = responses.map((r) => (r.ok ? 'ok' : r.error.code)).slice(2);
  assert.strictEqual(responses[0].error.code, 'bad-request');
  assert.strictEqual(responses[1].ok, true);
  assert.deepStrictEqual(codes, [
    'bad-request', 'bad-request', 'bad-request', 'bad-request', 'ok',
    'bad-request', 'bad-request', 'bad-request', 'bad-request', 'illegal-action',
    'unsupported', 'bad-request', 'ok', 'nothing-to-undo', 'unsupported', 'ok',
  ]);
  assert.strictEqual(responses[11].error.reason, 'whole-column-to-empty');
  for (const r of responses.filter((x) => !x.ok)) assert.strictEqual(typeof r.error.message, 'string');
});

test('adapter: hello with protocol 1 answers, protocol 2 is unsupported and exits 1', () => {
  const one = runAdapter([{ cmd: 'hello', protocol: 1 }]);
  assert.strictEqual(one.status, 0); // stdin EOF
  assert.deepStrictEqual(one.responses[0].rulesets, ['standard', 'classic', 'wasp', 'pysolfc', 'aisleriot']);
  const every = spawnSync(process.execPath, [ADAPTER, '--all-bundles'], { input: '{"cmd":"hello","protocol":1}\n', encoding: 'utf8' });
  const declared = JSON.parse(every.stdout).rulesets;
  assert.strictEqual(declared.length, 64);
  // Of the options it reads, the bundle's values; every option it does not read at its default.
  const stayAny = declared.find((r) => r.name === 'stay/any').options;
  const read = Object.fromEntries(Object.entries(stayAny).filter(([name]) => READS.has(name)));
  assert.deepStrictEqual(read, {
    runs: 'stay', stock: 'any-time', empty_column: 'any', whole_column_to_empty: 'refused', win: 'four-runs', finished_run_moves: 'ignored' });
  for (const option of V.options.filter((o) => !READS.has(o.name))) assert.strictEqual(stayAny[option.name], option.default);
  assert.strictEqual(one.responses[0].protocol, 1);
  const two = runAdapter([{ cmd: 'hello', protocol: 2 }, { cmd: 'hello', protocol: 1 }]);
  assert.strictEqual(two.status, 1);
  assert.strictEqual(two.responses.length, 1);
  assert.strictEqual(two.responses[0].ok, false);
  assert.strictEqual(two.responses[0].error.code, 'unsupported');
});
