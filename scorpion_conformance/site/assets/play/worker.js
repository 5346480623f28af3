'use strict';
// The Play page's solver, off the page's thread: the JavaScript adapter's own engine and
// solver (served beside this file), answering one search at a time.
// A request: {id, position, options, budget: {nodes, milliseconds}}.
// Answers: {id, progress: nodes} now and then, then {id, outcome, line?, proof?, nodes}.
importScripts('vocabulary.js', 'engine.js', 'solver.js');

self.onmessage = (event) => {
  const { id, position, options, budget } = event.data;
  try {
    const rules = self.ScorpionEngine.ruleSet('page', options);
    const checked = self.ScorpionEngine.validatePosition(position);
    const answer = self.ScorpionSolver.search(checked, rules, {
      nodes: budget.nodes,
      milliseconds: budget.milliseconds,
      memoryMb: budget.memoryMb || 768,
      progress: (nodes) => self.postMessage({ id, progress: nodes }),
    });
    self.postMessage({ id, ...answer });
  } catch (error) {
    self.postMessage({ id, outcome: 'unknown', proof: 'error', error: String(error && error.message), nodes: 0 });
  }
};
