#!/usr/bin/env node
'use strict';
// Scorpion conformance adapter, protocol v1: JSON Lines on stdin/stdout.
// Usage: node adapters/javascript/adapter.js [--all-bundles]

const readline = require('node:readline');
const { Game, EngineError, NAMED, checkAction, everyBundle } = require('./engine.js');
const { solve } = require('./solver.js');

const IMPLEMENTATION = {
  name: 'scorpion-js-example',
  version: '0.1.0',
  language: 'javascript',
  homepage: 'https://example.invalid/scorpion-conformance',
};

// The rule sets this adapter offers: the named ones, or with --all-bundles every combination
// of the options (the others as custom bundles, named as the reference's --all-bundles names them).
const RULESETS = process.argv.includes('--all-bundles') ? everyBundle() : NAMED;

const badRequest = (message) => new EngineError('bad-request', message);
const invalidPosition = (message) => new EngineError('invalid-position', message);
const isObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);

// How hello lists a rule set: a named one by its name, a custom bundle with its options.
function rulesetEntry(rules) {
  if (rules.name in NAMED) return rules.name;
  const { name, ...options } = rules;
  return { name, options };
}

// The rule set `start` asks for, by the name it was declared under.
function chooseRules(name) {
  if (typeof name !== 'string') throw badRequest('"rules" must be the name of a rule set this adapter declared');
  if (!Object.prototype.hasOwnProperty.call(RULESETS, name)) {
    throw new EngineError('unsupported', `rule set not supported: ${JSON.stringify(name).slice(0, 80)}`);
  }
  return RULESETS[name];
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
      return [{ ok: true, protocol: 1, implementation: IMPLEMENTATION, rulesets: Object.values(RULESETS).map(rulesetEntry), capabilities: ['undo', 'solve'] }, null];
    case 'start': {
      if (!('rules' in req)) throw badRequest('missing field "rules"');
      if (!('position' in req)) throw badRequest('missing field "position"');
      const rules = chooseRules(req.rules);
      if (!isObject(req.position)) throw invalidPosition('"position" must be an object');
      game = new Game(req.position, rules); // only replaces the game if the position is valid
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
      return [{ ok: true, ...solve(g.pos, g.rules, req.budget) }, null];
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
