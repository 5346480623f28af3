'use strict';
// The Play page: a game of Scorpion on the JavaScript adapter's own engine (engine.js), with
// deals by game number (deal.js) and the adapter's solver (solver.js, in a Web Worker) for
// hints and the dead-end watch. Every rule the page applies is the engine's: the page asks it
// which actions are legal, why one is refused, what an action does and where the game stands.
(function () {
  const E = window.ScorpionEngine;
  const D = window.ScorpionDeal;
  const S = window.ScorpionSolver;
  const V = window.ScorpionVocabulary;
  const root = document.getElementById('sc-play');
  if (!root || !E || !D || !S || !V) return;
  const BASE = root.dataset.base || '';
  const STORE = 'scorpion-play:';
  // What the solver may spend: on the background watch, on a hint, looking back for a position that wins.
  const WATCH = { nodes: 3000000, milliseconds: 8000 };
  const HINT = { nodes: 6000000, milliseconds: 15000 };
  const BACK = { nodes: 3000000, milliseconds: 8000 };
  const RANDOM_GAMES = 1000000; // "any deal" draws from 1 to this

  // -- storage (localStorage, every key under STORE) -----------------------------------------

  const load = (key, fallback) => {
    try {
      const text = window.localStorage.getItem(STORE + key);
      return text === null ? fallback : JSON.parse(text);
    } catch (error) {
      return fallback;
    }
  };
  const store = (key, value) => {
    try {
      window.localStorage.setItem(STORE + key, JSON.stringify(value));
    } catch (error) { /* private mode: the game goes on unsaved */ }
  };
  function forgetEverything() {
    const keys = [];
    for (let i = 0; i < window.localStorage.length; i++) {
      const key = window.localStorage.key(i);
      if (key && key.startsWith(STORE)) keys.push(key);
    }
    keys.forEach((key) => window.localStorage.removeItem(key));
  }

  // -- positions in the address -----------------------------------------------------------------

  const pairs = (text) => text.match(/../g) || [];
  function parsePosition(text) {
    const [columns, stock = '', removed = ''] = text.split(';');
    return {
      columns: columns.split(',').map((c) => {
        const [down, up = ''] = c.split('.');
        return { down: pairs(down), up: pairs(up) };
      }),
      stock: pairs(stock),
      removed: removed.split('').filter(Boolean),
    };
  }
  const formatPosition = (p) => p.columns.map((c) => c.down.join('') + '.' + c.up.join('')).join(',') +
    ';' + p.stock.join('') + ';' + p.removed.join('');

  // -- the game ---------------------------------------------------------------------------------

  let winnable = null; // per rule set: {solved, won: [...], unknown: [...]} (winnable.json)
  let G = null; // the game being played
  let sel = null; // the lifted card: {col, index}
  let armed = false; // the stock's first tap
  let hint = null; // the action a hint shows
  let offer = null; // why the dead-end offer is shown: 'proved' or 'no-move'
  const verdicts = new Map(); // the rules' values and the formatted position -> {outcome, line}

  const pos = () => G.positions[G.positions.length - 1];
  // Nothing lifted, armed, hinted or offered.
  const calm = () => {
    sel = null;
    armed = false;
    hint = null;
    offer = null;
  };
  const rulesKey = () => G.rulesName;
  const dealKey = () => (G.deal.game ? `game ${G.deal.game}` : `position ${G.deal.position}`);
  // A rule set's option values alone (a rule set also carries its name).
  const plain = (rules) => Object.fromEntries(V.options.map((o) => [o.name, rules[o.name]]));
  const optionsOf = (name) => plain(E.NAMED[name]);

  function rulesFrom(name, options) {
    if (name && E.NAMED[name]) return { rulesName: name, rules: E.NAMED[name] };
    return { rulesName: 'custom', rules: E.ruleSet('custom', options) };
  }

  // A fresh game of `deal` ({game} or {position}) under the named set or the options.
  function newGame(deal, rulesName, options) {
    const { rulesName: name, rules } = rulesFrom(rulesName, options);
    const start = deal.game ? D.dealGame(deal.game) : E.validatePosition(parsePosition(deal.position));
    G = {
      rulesName: name, rules, deal, start, positions: [start], actions: [],
      undos: 0, hints: 0, elapsed: 0, resumedAt: Date.now(), over: null,
    };
    calm();
    const stats = load('stats', {});
    const mine = stats[name] || { starts: 0, wins: 0 };
    mine.starts += 1;
    stats[name] = mine;
    store('stats', stats);
    remember();
    showAddress();
    render();
    say('');
    watch();
  }

  // The saved game, replayed through the engine; false when there is none or it does not replay.
  function resume(saved) {
    try {
      const { rulesName, rules } = rulesFrom(saved.rulesName, saved.options);
      const start = saved.deal.game ? D.dealGame(saved.deal.game) : E.validatePosition(parsePosition(saved.deal.position));
      const positions = [start];
      for (const action of saved.actions) positions.push(E.apply(positions[positions.length - 1], rules, action).position);
      G = {
        rulesName, rules, deal: saved.deal, start, positions, actions: [...saved.actions],
        undos: saved.undos, hints: saved.hints, elapsed: saved.elapsed, resumedAt: Date.now(), over: saved.over || null,
      };
      calm();
      showAddress();
      render();
      say(G.over ? '' : 'Your game is back where you left it.');
      if (G.over) showResult(); else afterChange();
      return true;
    } catch (error) {
      return false;
    }
  }

  function elapsed() {
    return G.elapsed + (G.over || document.hidden ? 0 : Date.now() - G.resumedAt);
  }

  function remember() {
    store('game', {
      rulesName: G.rulesName, options: plain(G.rules), deal: G.deal, actions: G.actions,
      undos: G.undos, hints: G.hints, elapsed: elapsed(), over: G.over,
    });
  }

  function showAddress() {
    const params = new URLSearchParams();
    if (G.rulesName === 'custom') {
      params.set('options', V.options.map((o) => `${o.name}:${G.rules[o.name]}`).join(','));
    } else {
      params.set('rules', G.rulesName);
    }
    if (G.deal.game) params.set('game', String(G.deal.game));
    else params.set('position', G.deal.position);
    const query = params.toString().replace(/%2C/g, ',').replace(/%3B/g, ';').replace(/%3A/g, ':');
    window.history.replaceState(null, '', `${window.location.pathname}?${query}`);
  }

  // A game number to deal: one the campaign proved winnable (when asked and known), else any.
  function drawGame(name) {
    const list = winnable && winnable[name] && winnable[name].won;
    if (ui.winnable.checked && list && list.length) return list[Math.floor(Math.random() * list.length)];
    return 1 + Math.floor(Math.random() * RANDOM_GAMES);
  }

  // What the committed campaign says of the current game number.
  function campaignSays() {
    if (!G.deal.game) return 'a position of your choice';
    const known = winnable && winnable[G.rulesName];
    if (!known) return 'not in the solver\u2019s campaign';
    if (known.won.includes(G.deal.game)) return 'proved winnable by the solver';
    if (known.unknown.includes(G.deal.game)) return 'left undecided by the solver';
    if (G.deal.game <= known.solved) return 'proved lost by the solver';
    return 'not in the solver\u2019s campaign';
  }

  // -- playing ------------------------------------------------------------------------------------

  function play(action) {
    const outcome = E.apply(pos(), G.rules, action);
    G.positions.push(outcome.position);
    G.actions.push(action);
    calm();
    const news = [];
    if (outcome.flipped.length) news.push(`${outcome.flipped.map(E.say).join(', ')} turned face up.`);
    if (outcome.collected.length) {
      news.push(`The ${outcome.collected.map((s) => V.suits[E.SUITS.indexOf(s)].name).join(' and ')} run${outcome.collected.length > 1 ? 's' : ''} left the table.`);
    }
    say(news.join(' '));
    afterChange();
  }

  function afterChange() {
    remember();
    render();
    if (G.over) return;
    const status = E.status(pos(), G.rules);
    if (status === 'won') finish('won');
    else if (status === 'lost') showOffer('no-move');
    else watch();
  }

  function targetsOf(s) {
    const card = pos().columns[s.col].up[s.index];
    const found = [];
    for (let to = 1; to <= E.COLUMNS; to++) {
      if (!E.refusal(pos(), G.rules, { type: 'move', card, to })) found.push(to - 1);
    }
    return found;
  }

  function lift(col, index) {
    armed = false;
    sel = { col, index };
    const card = pos().columns[col].up[index];
    const targets = targetsOf(sel);
    render();
    const group = pos().columns[col].up.length - index;
    say(`${E.say(card)} lifted${group > 1 ? ` with ${group - 1} card${group > 2 ? 's' : ''} on it` : ''}: ` +
      (targets.length ? `column${targets.length > 1 ? 's' : ''} ${targets.map((t) => t + 1).join(', ')} can take it.` : 'no column can take it now.'));
  }

  function drop() {
    sel = null;
    armed = false;
    render();
  }

  // Move the lifted cards to column `dest`, or say in the engine's words why not.
  function moveTo(dest) {
    if (!sel) return;
    const card = pos().columns[sel.col].up[sel.index];
    if (dest === sel.col) {
      drop();
      say('');
      return;
    }
    const action = { type: 'move', card, to: dest + 1 };
    const why = E.refusal(pos(), G.rules, action);
    if (why) {
      drop();
      say(capital(why.message) + '.', 'refused');
      return;
    }
    play(action);
  }

  function cardTapped(col, index) {
    if (G.over) return;
    if (sel && sel.col === col && sel.index === index) {
      const targets = targetsOf(sel);
      if (targets.length) moveTo(targets[0]);
      else {
        const card = pos().columns[col].up[index];
        drop();
        say(`No column can take ${E.say(card)} now.`, 'refused');
      }
    } else if (sel && sel.col !== col) {
      moveTo(col);
    } else {
      lift(col, index);
    }
  }

  function columnTapped(col) {
    if (G.over || !sel) return;
    moveTo(col);
  }

  function oneMore(delta) {
    if (!sel) return;
    const column = pos().columns[sel.col].up;
    const index = sel.index - delta;
    if (index >= 0 && index < column.length) lift(sel.col, index);
  }

  function stockTapped() {
    if (G.over) return;
    sel = null;
    const deal = { type: 'deal' };
    const why = E.refusal(pos(), G.rules, deal);
    if (why) {
      armed = false;
      render();
      say(capital(why.message) + '.', 'refused');
      return;
    }
    const others = E.availableMoves(pos(), G.rules).length;
    if (others && !armed) {
      armed = true;
      render();
      say('The stock is armed: tap it again to deal its cards onto columns 1, 2 and 3 ' +
        `(${others} other move${others > 1 ? 's are' : ' is'} still open).`);
      return;
    }
    play(deal);
  }

  function undo() {
    if (!G.actions.length || G.over === 'won') return;
    backTo(G.positions.length - 2, () => 'One move taken back.');
  }

  function backTo(index, words) {
    const back = G.positions.length - 1 - index;
    G.positions.length = index + 1;
    G.actions.length = index;
    G.undos += back;
    G.over = null;
    hideResult();
    calm();
    say(words(back));
    afterChange();
  }

  function undoAll() {
    if (!G.actions.length || G.over === 'won') return;
    backTo(0, (back) => `${back} move${back > 1 ? 's' : ''} taken back: the start of the game.`);
  }

  function restart() {
    newGame(G.deal, G.rulesName, plain(G.rules));
    say('The same deal, from the start.');
  }

  function newDeal() {
    const name = ui.rules.value;
    newGame({ game: drawGame(name) }, name, optionsOf(name));
  }

  function finish(how) {
    G.elapsed = elapsed();
    G.over = how;
    calm();
    if (how === 'won') {
      const stats = load('stats', {});
      const mine = stats[rulesKey()] || { starts: 0, wins: 0 };
      mine.wins += 1;
      stats[rulesKey()] = mine;
      store('stats', stats);
      const bests = load('best', {});
      const key = `${rulesKey()} · ${dealKey()}`;
      const old = bests[key];
      G.record = !old || G.actions.length < old.moves;
      G.previous = old || null;
      if (G.record) bests[key] = { moves: G.actions.length, time: G.elapsed, date: new Date().toISOString().slice(0, 10) };
      store('best', bests);
    }
    remember();
    render();
    showResult();
  }

  // -- the solver -------------------------------------------------------------------------------

  let worker = null;
  let job = null; // {id, resolve}
  let jobs = 0;

  function startWorker() {
    try {
      worker = new Worker(`${BASE}worker.js`);
      worker.onmessage = (event) => {
        const answer = event.data;
        if (!job || answer.id !== job.id || answer.progress !== undefined) return;
        const done = job;
        job = null;
        done.resolve(answer);
      };
    } catch (error) {
      worker = null; // no workers here (a page opened from a file): the search runs on the page
    }
  }

  // The solver's answer for `position`: a promise; a newer request cancels an older one.
  const verdictKey = (position) => `${V.options.map((o) => G.rules[o.name]).join('/')} ${formatPosition(position)}`;

  function judge(position, budget) {
    const known = verdicts.get(verdictKey(position));
    if (known && (known.outcome !== 'unknown' || known.budget >= budget.nodes)) return Promise.resolve(known);
    if (job) {
      worker.terminate();
      job.resolve(null);
      job = null;
      startWorker();
    }
    const remembered = (answer) => {
      if (answer && answer.proof !== 'error') verdicts.set(verdictKey(position), { ...answer, budget: budget.nodes });
      return answer;
    };
    if (!worker) return Promise.resolve(remembered(S.search(position, G.rules, budget)));
    return new Promise((resolve) => {
      job = { id: ++jobs, resolve };
      worker.postMessage({ id: job.id, position, options: plain(G.rules), budget });
    }).then(remembered);
  }

  // The watch: the solver looks at the position in the background after every change.
  function watch() {
    if (G.over) return;
    const here = pos();
    ui.watch.textContent = 'The solver is looking at this position\u2026';
    ui.watch.dataset.verdict = 'checking';
    judge(here, WATCH).then((answer) => {
      if (!answer || G.over || pos() !== here) return;
      ui.watch.dataset.verdict = answer.outcome;
      if (answer.outcome === 'won') {
        ui.watch.textContent = 'The solver sees a winning line from here.';
      } else if (answer.outcome === 'lost') {
        ui.watch.textContent = 'The solver proved that no line wins from here.';
        showOffer('proved');
      } else {
        ui.watch.textContent = 'The solver could not decide this position in time; it is not called lost.';
      }
    });
  }

  function askHint() {
    if (G.over) return;
    G.hints += 1;
    remember();
    const here = pos();
    say('The solver is looking for a winning line\u2026');
    judge(here, HINT).then((answer) => {
      if (!answer || G.over || pos() !== here) return;
      if (answer.outcome === 'won') {
        hint = answer.line[0];
        sel = null;
        armed = false;
        render();
        say(hint.type === 'deal' ? 'Hint: deal the stock.' : `Hint: move ${E.say(hint.card)} to column ${hint.to}.`, 'hint');
      } else if (answer.outcome === 'lost') {
        say('No hint: the solver proved that no line wins from here.');
        showOffer('proved');
      } else {
        say('No hint: the solver could not decide this position in time.');
      }
    });
  }

  function showOffer(why) {
    offer = why;
    ui.offerText.textContent = why === 'no-move'
      ? 'No move is left: the game is lost here.'
      : 'The solver proved that this position can no longer be won.';
    ui.offer.hidden = false;
  }

  async function backToWinning() {
    ui.offer.hidden = true;
    say('Looking for the last position that still wins\u2026');
    const start = G.positions.length;
    for (let k = G.positions.length - 2; k >= 0; k--) {
      const answer = await judge(G.positions[k], BACK);
      if (G.positions.length !== start) return; // the player moved meanwhile
      if (answer && answer.outcome === 'won') {
        backTo(k, (back) => `Back ${back} move${back > 1 ? 's' : ''}: the solver proves this position still wins.`);
        return;
      }
    }
    say('No earlier position of this game is proved winnable.');
    showOffer(offer || 'proved');
  }

  // -- the page ---------------------------------------------------------------------------------

  const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === 'class') node.className = v;
      else if (k === 'text') node.textContent = v;
      else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? '' : v);
    }
    children.forEach((c) => node.append(c));
    return node;
  };
  const button = (label, onclick, attrs = {}) => el('button', { type: 'button', class: 'md-button sc-play-button', onclick, ...attrs }, label);

  const ui = {};
  function build() {
    const rules = el('select', { id: 'sc-play-rules', 'aria-label': 'Rule set' });
    for (const set of V.rulesets) rules.append(el('option', { value: set.name, text: set.name }));
    rules.append(el('option', { value: 'custom', text: 'custom', hidden: true }));
    ui.rules = rules;
    ui.game = el('input', { id: 'sc-play-game', type: 'number', min: '1', step: '1', inputmode: 'numeric', 'aria-label': 'Game number' });
    ui.winnable = el('input', { id: 'sc-play-winnable', type: 'checkbox' });
    ui.winnable.checked = load('winnable-only', true);
    ui.winnable.addEventListener('change', () => store('winnable-only', ui.winnable.checked));
    rules.addEventListener('change', () => {
      if (rules.value === 'custom') return;
      newGame(G.deal, rules.value, optionsOf(rules.value));
      say(`The same deal under ${rules.value}.`);
    });
    const openGame = (event) => {
      event.preventDefault();
      const number = Number(ui.game.value);
      if (!Number.isSafeInteger(number) || number < 1) {
        say('A game number is a whole number from 1.', 'refused');
        return;
      }
      const name = rules.value === 'custom' ? 'standard' : rules.value;
      newGame({ game: number }, name, optionsOf(name));
    };
    const bar = el('form', { class: 'sc-play-bar', onsubmit: openGame },
      el('label', {}, 'Rules ', rules),
      el('label', {}, 'Game ', ui.game),
      el('button', { type: 'submit', class: 'md-button sc-play-button', id: 'sc-play-open' }, 'Deal it'),
      button('New deal', newDeal, { id: 'sc-play-new' }),
      el('label', { class: 'sc-play-check' }, ui.winnable, ' Winnable deals only'));
    ui.info = el('p', { class: 'sc-play-info', id: 'sc-play-info' });
    ui.stock = el('button', { type: 'button', class: 'sc-play-stock', id: 'sc-play-stock', onclick: stockTapped });
    ui.slots = el('div', { class: 'sc-play-slots', 'aria-label': 'Collected runs' });
    ui.columns = el('div', { class: 'sc-play-columns' });
    ui.board = el('div', { class: 'sc-play-board', id: 'sc-play-board' },
      el('div', { class: 'sc-play-top' }, ui.stock, ui.slots), ui.columns);
    ui.more = button('\u25b2', () => oneMore(1), { id: 'sc-play-more', title: 'One card more', 'aria-label': 'One card more' });
    ui.fewer = button('\u25bc', () => oneMore(-1), { id: 'sc-play-fewer', title: 'One card fewer', 'aria-label': 'One card fewer' });
    ui.undo = button('Undo', undo, { id: 'sc-play-undo' });
    ui.undoAll = button('Undo all', undoAll, { id: 'sc-play-undo-all' });
    ui.counter = el('span', { class: 'sc-play-counter', id: 'sc-play-counter' });
    const tools = el('div', { class: 'sc-play-tools' }, ui.undo, ui.undoAll,
      button('Restart', restart, { id: 'sc-play-restart' }), button('Hint', askHint, { id: 'sc-play-hint' }),
      ui.more, ui.fewer, ui.counter);
    ui.message = el('p', { class: 'sc-play-message', id: 'sc-play-message', role: 'status', 'aria-live': 'polite' });
    ui.watch = el('p', { class: 'sc-play-watch', id: 'sc-play-watch', 'aria-live': 'polite' });
    ui.offerText = el('p', {});
    ui.offer = el('div', { class: 'sc-play-offer', id: 'sc-play-offer', role: 'alert', hidden: true }, ui.offerText,
      el('div', { class: 'sc-play-actions' },
        button('Undo', undo, { id: 'sc-play-offer-undo' }),
        button('Back to the last move that still wins', backToWinning, { id: 'sc-play-back' }),
        button('Resign', () => { ui.offer.hidden = true; finish('resigned'); }, { id: 'sc-play-resign' })));
    ui.result = el('section', { class: 'sc-play-result', id: 'sc-play-result', hidden: true });
    ui.stats = el('div', { id: 'sc-play-stats' });
    const data = el('details', { class: 'sc-play-data', id: 'sc-play-data' },
      el('summary', {}, 'Your data on this device'),
      el('p', {}, 'This browser keeps your game in progress (a reload resumes it), your best result for each ' +
        'game number and rule set, and how many games you started and won under each rule set. Nothing leaves the page.'),
      ui.stats,
      button('Remove my saved game and results', () => {
        forgetEverything();
        ui.winnable.checked = true;
        renderStats();
        say('The saved game, the results and the statistics are removed from this browser.');
      }, { id: 'sc-play-forget' }));
    root.replaceChildren(bar, ui.info, ui.board, tools, ui.message, ui.watch, ui.offer, ui.result, data);
    ui.columns.addEventListener('click', boardClick);
    ui.columns.addEventListener('pointerdown', dragStart);
    // Before the site's own shortcuts (S and / open its search): a key the board uses is the board's.
    document.addEventListener('keydown', keyDown, true);
  }

  function cardFace(card) {
    const red = V.suits[E.SUITS.indexOf(E.suit(card))].colour === 'red';
    const label = V.ranks[E.rank(card)].label;
    const symbol = V.suits[E.SUITS.indexOf(E.suit(card))].symbol;
    return { red, label, symbol };
  }

  function render() {
    const here = pos();
    const targets = sel ? targetsOf(sel) : [];
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    const locked = here.stock.length > 0 && E.refusal(here, G.rules, { type: 'deal' }) !== null;
    ui.rules.value = G.rulesName;
    ui.game.value = G.deal.game ? String(G.deal.game) : '';
    const named = G.rulesName === 'custom'
      ? `custom rules (${V.options.map((o) => G.rules[o.name]).join(', ')})` : G.rulesName;
    ui.info.textContent = `${G.deal.game ? `Game ${G.deal.game}` : 'Position'} \u00b7 ${named} \u00b7 ${campaignSays()}`;
    // The stock.
    ui.stock.replaceChildren();
    ui.stock.dataset.key = 'stock';
    ui.stock.className = `sc-play-stock${armed ? ' sc-armed' : ''}${locked ? ' sc-locked' : ''}${hint && hint.type === 'deal' ? ' sc-hint' : ''}`;
    ui.stock.disabled = !!G.over;
    for (let k = 0; k < here.stock.length; k++) ui.stock.append(el('span', { class: 'sc-play-card sc-down' }));
    if (!here.stock.length) ui.stock.append(el('span', { class: 'sc-play-empty-stock', text: 'dealt' }));
    if (locked) ui.stock.append(el('span', { class: 'sc-play-lock', text: 'locked until no other move is left' }));
    ui.stock.setAttribute('aria-label', here.stock.length
      ? `Stock, ${here.stock.length} cards${locked ? ', locked until no other move is left' : ''}${armed ? ', armed: press again to deal' : ''}`
      : 'Stock, dealt');
    // The collected runs (runs: collect) or the complete runs on the table (runs: stay).
    ui.slots.replaceChildren();
    for (let k = 0; k < 4; k++) {
      const s = here.removed[k];
      ui.slots.append(el('span', { class: `sc-play-slot${s ? ' sc-full' : ''}`, text: s ? V.suits[E.SUITS.indexOf(s)].symbol : '' }));
    }
    // The columns.
    ui.columns.replaceChildren();
    here.columns.forEach((column, col) => {
      const runs = E.completeRuns(column.up);
      const hinted = hint && hint.type === 'move' && hint.to === col + 1;
      const div = el('div', {
        class: `sc-play-col${targets.includes(col) ? ' sc-target' : ''}${armed && col < here.stock.length ? ' sc-glow' : ''}${hinted ? ' sc-hint-to' : ''}`,
        'data-col': String(col + 1),
      });
      div.append(el('button', {
        type: 'button', class: 'sc-play-head', 'data-key': `head${col}`, 'data-col': String(col + 1),
        'aria-label': `Column ${col + 1}${column.up.length ? '' : ', empty'}${targets.includes(col) ? ', can take the lifted cards' : ''}`,
        text: String(col + 1),
      }));
      const pile = el('div', { class: 'sc-play-pile' });
      column.down.forEach(() => pile.append(el('span', { class: 'sc-play-card sc-down', 'aria-hidden': 'true' })));
      column.up.forEach((card, index) => {
        const face = cardFace(card);
        const lifted = sel && sel.col === col && index >= sel.index;
        const inRun = runs.some((s) => s <= index && index < s + E.RUN_LENGTH);
        pile.append(el('button', {
          type: 'button',
          class: `sc-play-card sc-up${face.red ? ' sc-red' : ''}${lifted ? ' sc-lifted' : ''}${sel && sel.col === col && sel.index === index ? ' sc-chosen' : ''}` +
            `${hint && hint.type === 'move' && hint.card === card ? ' sc-hint' : ''}${inRun ? ' sc-run' : ''}`,
          'data-card': card, 'data-col': String(col + 1), 'data-index': String(index), 'data-key': card,
          'aria-label': `${E.say(card)}, column ${col + 1}${index === column.up.length - 1 ? ', on top' : ''}`,
          'aria-pressed': lifted ? 'true' : 'false',
          disabled: !!G.over,
        }, el('span', { class: 'sc-corner', text: face.label + face.symbol }), el('span', { class: 'sc-pip', text: face.symbol })));
      });
      div.append(pile);
      ui.columns.append(div);
    });
    ui.undo.disabled = !G.actions.length || G.over === 'won';
    ui.undoAll.disabled = !G.actions.length || G.over === 'won';
    ui.more.disabled = !sel || sel.index === 0;
    ui.fewer.disabled = !sel || sel.index === here.columns[sel.col].up.length - 1;
    ui.counter.textContent = `Moves ${G.actions.length} \u00b7 ${clock(elapsed())}`;
    ui.offer.hidden = !offer || !!G.over;
    ui.board.classList.toggle('sc-over', !!G.over);
    if (focused) {
      const again = root.querySelector(`[data-key="${focused}"]`);
      if (again && !again.disabled) again.focus();
    }
    renderStats();
  }

  function renderStats() {
    const stats = load('stats', {});
    const names = Object.keys(stats);
    if (!names.length) {
      ui.stats.replaceChildren(el('p', { text: 'No game started yet.' }));
      return;
    }
    const table = el('table', { class: 'sc-play-stats-table' },
      el('thead', {}, el('tr', {}, el('th', { text: 'Rule set' }), el('th', { text: 'Started' }), el('th', { text: 'Won' }))));
    const body = el('tbody');
    for (const name of names) {
      body.append(el('tr', {}, el('td', { text: name }), el('td', { text: String(stats[name].starts) }), el('td', { text: String(stats[name].wins) })));
    }
    table.append(body);
    ui.stats.replaceChildren(table);
  }

  const clock = (ms) => {
    const s = Math.floor(ms / 1000);
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  };

  function showResult() {
    const won = G.over === 'won';
    const best = load('best', {})[`${rulesKey()} \u00b7 ${dealKey()}`];
    const rows = [['Moves', String(G.actions.length)], ['Time', clock(G.elapsed)], ['Undos', String(G.undos)], ['Hints', String(G.hints)]];
    const list = el('dl', { class: 'sc-play-figures' });
    rows.forEach(([k, v]) => list.append(el('dt', { text: k }), el('dd', { text: v, 'data-figure': k.toLowerCase() })));
    const where = G.deal.game ? `game ${G.deal.game}` : 'this position';
    const record = won && G.record
      ? el('p', { class: 'sc-play-record', text: G.previous ? `A new best for ${where} under ${G.rulesName}: ${G.actions.length} moves, ${G.previous.moves} before.` : `Your first win of ${where} under ${G.rulesName}.` })
      : el('p', { text: best ? `Your best for ${where} under ${G.rulesName}: ${best.moves} moves.` : `No win of ${where} under ${G.rulesName} yet.` });
    ui.result.replaceChildren(
      el('h2', { text: won ? 'Won!' : 'Resigned' }), list, record,
      el('div', { class: 'sc-play-actions' }, button('New deal', newDeal, { id: 'sc-play-result-new' }),
        button('Play this deal again', restart, { id: 'sc-play-result-again' })));
    ui.result.hidden = false;
    ui.watch.textContent = '';
  }

  function hideResult() {
    ui.result.hidden = true;
  }

  function say(text, kind) {
    ui.message.textContent = text;
    ui.message.dataset.kind = kind || '';
  }

  function boardClick(event) {
    if (dragged) {
      dragged = false;
      return;
    }
    const card = event.target.closest('.sc-play-card.sc-up');
    const column = event.target.closest('.sc-play-col');
    if (card) cardTapped(Number(card.dataset.col) - 1, Number(card.dataset.index));
    else if (column) columnTapped(Number(column.dataset.col) - 1);
  }

  // Drag a card (and what lies on it) to a column.
  let dragging = null;
  let dragged = false;
  function dragStart(event) {
    const card = event.target.closest('.sc-play-card.sc-up');
    if (!card || G.over || event.button !== 0) return;
    dragging = { card, x: event.clientX, y: event.clientY, ghost: null };
    document.addEventListener('pointermove', dragMove);
    document.addEventListener('pointerup', dragEnd, { once: true });
  }
  function dragMove(event) {
    if (!dragging) return;
    if (!dragging.ghost) {
      if (Math.hypot(event.clientX - dragging.x, event.clientY - dragging.y) < 8) return;
      const col = Number(dragging.card.dataset.col) - 1;
      const index = Number(dragging.card.dataset.index);
      lift(col, index);
      const ghost = el('div', { class: 'sc-play-ghost' });
      root.querySelectorAll(`.sc-play-col[data-col="${col + 1}"] .sc-lifted`).forEach((c) => ghost.append(c.cloneNode(true)));
      ghost.style.width = `${dragging.card.getBoundingClientRect().width}px`;
      document.body.append(ghost);
      dragging.ghost = ghost;
    }
    dragging.ghost.style.left = `${event.clientX - 20}px`;
    dragging.ghost.style.top = `${event.clientY - 10}px`;
  }
  function dragEnd(event) {
    document.removeEventListener('pointermove', dragMove);
    const was = dragging;
    dragging = null;
    if (!was || !was.ghost) return;
    was.ghost.remove();
    dragged = true; // the click that follows the drag is not a tap
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const column = under && under.closest('.sc-play-col');
    if (column) moveTo(Number(column.dataset.col) - 1);
    else drop();
  }

  function focusColumn(col, depth) {
    const cards = root.querySelectorAll(`.sc-play-col[data-col="${col + 1}"] .sc-play-card.sc-up`);
    const target = cards.length ? cards[Math.max(0, cards.length - 1 - (depth || 0))] : root.querySelector(`.sc-play-head[data-col="${col + 1}"]`);
    if (target) target.focus();
  }

  function keyDown(event) {
    const focus = document.activeElement;
    const ours = !focus || focus === document.body || root.contains(focus);
    if (!ours || !G || event.target.closest('input, select, textarea') || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key;
    if (/^[1-7sSuUhH]$|^Escape$|^Arrow/.test(key)) event.stopPropagation();
    const at = focus && focus.dataset.col ? Number(focus.dataset.col) - 1 : null;
    if (key >= '1' && key <= '7') {
      event.preventDefault();
      if (sel) moveTo(Number(key) - 1);
      else focusColumn(Number(key) - 1);
    } else if (key === 'Escape') {
      sel = null;
      armed = false;
      hint = null;
      render();
      say('');
    } else if (key === 'ArrowLeft' || key === 'ArrowRight') {
      event.preventDefault();
      const from = at === null ? (sel ? sel.col : 0) : at;
      focusColumn((from + (key === 'ArrowLeft' ? 6 : 1)) % 7);
    } else if (key === 'ArrowUp' || key === 'ArrowDown') {
      event.preventDefault();
      if (sel) {
        oneMore(key === 'ArrowUp' ? 1 : -1);
      } else if (focus && focus.dataset.card) {
        const sibling = key === 'ArrowUp' ? focus.previousElementSibling : focus.nextElementSibling;
        if (sibling && sibling.matches('.sc-up')) sibling.focus();
      }
    } else if (key === 's' || key === 'S') {
      ui.stock.focus();
    } else if (key === 'u' || key === 'U') {
      undo();
    } else if (key === 'h' || key === 'H') {
      askHint();
    } else if (key === 'Enter' && focus && focus.classList.contains('sc-play-head')) {
      event.preventDefault();
      if (sel) moveTo(Number(focus.dataset.col) - 1);
    }
  }

  // The page's own handle, for people and tests who want to see the game as data.
  window.scorpionPlay = {
    snapshot: () => ({
      rules: G.rulesName, options: plain(G.rules), deal: G.deal, position: pos(), actions: [...G.actions],
      status: E.status(pos(), G.rules), over: G.over, undos: G.undos, hints: G.hints,
      watch: ui.watch.dataset.verdict || null, selected: sel, armed, hint,
    }),
  };

  // -- start --------------------------------------------------------------------------------------

  function begin() {
    build();
    startWorker();
    const params = new URLSearchParams(window.location.search);
    const saved = load('game', null);
    let options = null;
    if (params.get('options')) {
      options = {};
      for (const pair of params.get('options').split(',')) {
        const [k, v] = pair.split(':');
        options[k] = v;
      }
    }
    const name = params.get('rules') || (options ? null : 'standard');
    let deal = null;
    if (params.get('game')) deal = { game: Number(params.get('game')) };
    else if (params.get('position')) deal = { position: params.get('position') };
    try {
      if (deal) {
        const wanted = options || optionsOf(E.NAMED[name] ? name : 'standard');
        const same = saved && JSON.stringify(saved.deal) === JSON.stringify(deal) &&
          JSON.stringify(saved.options) === JSON.stringify(plain(E.ruleSet('wanted', wanted)));
        if (!(same && resume(saved))) newGame(deal, name, wanted);
      } else if (!(saved && resume(saved))) {
        newDeal();
      }
    } catch (error) {
      newGame({ game: drawGame('standard') }, 'standard', optionsOf('standard'));
      say(`That deal cannot be played: ${error.message}. Here is another.`, 'refused');
    }
    window.setInterval(() => { if (G && !G.over) ui.counter.textContent = `Moves ${G.actions.length} \u00b7 ${clock(elapsed())}`; }, 1000);
    document.addEventListener('visibilitychange', () => {
      if (!G || G.over) return;
      if (document.hidden) G.elapsed += Date.now() - G.resumedAt;
      else G.resumedAt = Date.now();
      remember();
    });
    root.dataset.ready = 'true';
  }

  fetch(`${BASE}winnable.json`).then((r) => (r.ok ? r.json() : null)).catch(() => null).then((data) => {
    winnable = data;
    begin();
  });
}());
