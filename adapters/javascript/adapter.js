#!/usr/bin/env node
'use strict';
// Scorpion conformance adapter, protocol v1: JSON Lines on stdin/stdout.
// Usage: node adapters/javascript/adapter.js

const readline = require('node:readline');
const { Game, EngineError, checkAction } = require('./engine.js');
const { solve } = require('./solver.js');

const IMPLEMENTATION = {
  name: 'scorpion-js-example',
  version: '0.1.0',
  language: 'javascript',
  homepage: 'https://example.invalid/scorpion-conformance',
};

const STANDARD_OPTIONS = {
  runs: 'collect',
  stock: 'any-time',
  empty_column: 'king',
  whole_column_to_empty: 'refused',
  win: 'four-runs',
  finished_run_moves: 'ignored',
};

const badRequest = (message) => new EngineError('bad-request', message);
const invalidPosition = (message) => new EngineError('invalid-position', message);
const isObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);

// Accept "standard", {name:"standard"[, options]}, or any name whose options spell
// out standard's settings (win and finished_run_moves may be left out: they default
// to four-runs and ignored). Options may only restate standard's values.
function checkRules(rules) {
  if (typeof rules === 'string') {
    if (rules !== 'standard') throw new EngineError('unsupported', `rule set not supported: ${rules}`);
    return;
  }
  if (!isObject(rules)) throw badRequest('"rules" must be a string or an object');
  if (typeof rules.name !== 'string') throw badRequest('"rules.name" must be a string');
  const options = rules.options === undefined ? {} : rules.options;
  if (!isObject(options)) throw badRequest('"rules.options" must be an object');
  for (const [key, value] of Object.entries(options)) {
    if (STANDARD_OPTIONS[key] !== value) {
      throw new EngineError('unsupported', `option not supported: ${key}=${JSON.stringify(value)}`);
    }
  }
  const required = ['runs', 'stock', 'empty_column', 'whole_column_to_empty'];
  const complete = required.every((k) => k in options);
  if (rules.name !== 'standard' && !complete) {
    throw new EngineError('unsupported', `rule set not supported: ${rules.name}`);
  }
}

let game = null;

function needGame() {
  if (!game) throw badRequest('no game: send "start" first');
  return game;
}

// Returns [response, exitCode|null].
let greeted = false;

function handle(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    throw badRequest(`malformed JSON: ${e.message}`);
  }
  if (!isObject(req)) throw badRequest('request must be a JSON object');
  if (req.cmd !== 'hello' && !greeted) throw badRequest('send "hello" first');
  switch (req.cmd) {
    case 'hello':
      if (!Number.isInteger(req.protocol)) throw badRequest('"protocol" must be an integer');
      if (req.protocol !== 1) {
        return [{ ok: false, error: { code: 'unsupported', message: `protocol ${req.protocol} not supported; this adapter speaks protocol 1` } }, 1];
      }
      greeted = true;
      return [{ ok: true, protocol: 1, implementation: IMPLEMENTATION, rulesets: ['standard'], capabilities: ['undo', 'solve'] }, null];
    case 'start': {
      if (!('rules' in req)) throw badRequest('missing field "rules"');
      if (!('position' in req)) throw badRequest('missing field "position"');
      checkRules(req.rules);
      if (!isObject(req.position)) throw invalidPosition('"position" must be an object');
      game = new Game(req.position); // only replaces the game if the position is valid
      return [{ ok: true, state: game.state() }, null];
    }
    case 'legal':
      return [{ ok: true, actions: needGame().legal() }, null];
    case 'play': {
      const g = needGame();
      if (!('action' in req)) throw badRequest('missing field "action"');
      const problem = checkAction(req.action);
      if (problem) throw badRequest(problem);
      g.play(req.action);
      return [{ ok: true, state: g.state() }, null];
    }
    case 'state':
      return [{ ok: true, state: needGame().state() }, null];
    case 'undo': {
      const g = needGame();
      g.undo();
      return [{ ok: true, state: g.state() }, null];
    }
    case 'solve': {
      const g = needGame();
      if (!('budget' in req)) throw badRequest('missing field "budget"');
      if (!Number.isSafeInteger(req.budget) || req.budget < 1) {
        throw badRequest(`"budget" must be a whole number from 1, got ${JSON.stringify(req.budget)}`);
      }
      return [{ ok: true, ...solve(g.pos, req.budget) }, null];
    }
    case 'quit':
      return [{ ok: true }, 0];
    default:
      throw badRequest(`unknown cmd: ${JSON.stringify(req.cmd)}`);
  }
}

// The request's id, when it has a whole number one: every answer echoes it.
function requestId(line) {
  try {
    const req = JSON.parse(line);
    return isObject(req) && Number.isSafeInteger(req.id) && req.id >= 0 ? req.id : null;
  } catch (e) {
    return null;
  }
}

function respond(line) {
  let answer;
  try {
    answer = handle(line);
  } catch (e) {
    const error = e instanceof EngineError
      ? { code: e.code, message: e.message }
      : { code: 'bad-request', message: `internal error: ${e && e.message}` };
    if (e instanceof EngineError && e.reason) error.reason = e.reason;
    answer = [{ ok: false, error }, null];
  }
  const id = requestId(line);
  if (id !== null) answer[0].id = id;
  return answer;
}

function main() {
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  let done = false;
  rl.on('line', (line) => {
    if (done || line.trim() === '') return; // blank lines are not requests
    const [response, exitCode] = respond(line);
    if (exitCode !== null) {
      done = true;
      rl.close();
      process.stdout.write(JSON.stringify(response) + '\n', () => process.exit(exitCode));
    } else {
      process.stdout.write(JSON.stringify(response) + '\n');
    }
  });
  rl.on('close', () => {
    if (!done) process.exitCode = 0; // stdin EOF: exit normally
  });
}

if (require.main === module) main();

module.exports = { respond };
