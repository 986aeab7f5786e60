// The table page: one seat's (or a spectator's) live view of a game, with what just happened,
// a hint for each decision, the log and the chat (drawers on phones), the rules sheet and the end summary.
import { TableBanks } from "./banks.js";
import { beep } from "./beep.js";
import { TableClient } from "./client.js";
import { TableChat } from "./chat.js";
import { renderCoach } from "./coach.js";
import { headerWords, sheetNeeds, showGone } from "./phone.js";
import { hostedTables, rememberHosted } from "./invites.js";
import {
  forgetSeat, h, jsonText, listWords, loadRenderer, logItem, markdownNodes, reportFailure,
  seatName, seatToken, tableIdFromPath,
} from "./common.js";
import { _, formatNumber, ngettext } from "./i18n.js";

const tableId = tableIdFromPath();
const { token, problem: inviteProblem } = await seatToken(tableId);
const byId = (id) => document.getElementById(id);
const elements = {
  title: byId("title"), who: byId("who"), status: byId("status"), seats: byId("seats"), board: byId("board"),
  controls: byId("controls"), controlsPanel: byId("controls-panel"), turn: byId("turn"), timer: byId("timer"),
  notice: byId("notice"), log: byId("log"), logPanel: byId("log-panel"), summary: byId("summary"),
  happened: byId("happened"), hint: byId("hint"), private: byId("private"), myChoice: byId("my-choice"),
  waiting: byId("waiting"), renderError: byId("render-error"), rules: byId("rules"), sound: byId("sound"),
  coach: byId("coach"), forget: byId("forget-seat"), standingPass: byId("standing-pass"),
  standingPassBox: byId("standing-pass-box"), standingPassLabel: byId("standing-pass-label"),
  clockWaits: byId("clock-waits"), clockStart: byId("clock-start"),
  bankOwn: byId("bank-own"), bankOwnSays: byId("bank-own-says"), vacation: byId("vacation"),
};
const banks = new TableBanks({
  elements: { seats: elements.seats, bankOwn: elements.bankOwn, bankOwnSays: elements.bankOwnSays, vacation: elements.vacation },
  tableId, token, current: () => current, notice: (text) => showNotice(text),
});
// Lines of the log shown under "What just happened" when the page opens (the rest: the Log).
const HAPPENED_ON_ARRIVAL = 6;

let renderer = null;
let fallback = null; // the generic renderer, used when the game's own one fails
let current = null; // the last state message
let deadlineAt = null;
let noticeTimer = null;
let queue = Promise.resolve();
let controlsKey = null; // which decision the controls on screen were built for
let happenedLines = [];
let previousView = null; // the view just before the one on screen (a caption may tell what changed)
let happenedEarlier = 0; // lines before those shown, on opening the page
let wasMyTurn = false;
let rulesLoaded = false;
let soundOn = window.localStorage.getItem("gamebag-sound") === "on";
let toldDone = new Set(); // steps whose "done for you" line is in the log already
let rematchNews = null; // who started the rematch, as announced
let lastError = null; // the server's last error message (it says why a table is gone)

const client = new TableClient(tableId, token, {
  status(online) {
    elements.status.className = `status-dot ${online ? "online" : "offline"}`;
    elements.status.setAttribute("aria-label", online ? _("connected") : _("reconnecting"));
    elements.status.title = online ? _("connected") : _("reconnecting…");
  },
  gone(why) {
    queue = queue.then(() => {
      showGone(why, lastError);
      document.body.classList.remove("playing");
    });
  },
  message(message) {
    // Handle messages strictly in order, even while a renderer module loads.
    queue = queue.then(() => handle(message)).catch((error) => reportFailure("table page", error, elements.renderError));
  },
});

async function handle(message) {
  if (chat.handle(message)) return; // the table's chat and its refusals (chat.js)
  if (message.type === "state") {
    if (!renderer) renderer = await loadRenderer(message.table.game);
    if (!fallback) fallback = (await import("/static/games/generic.js")).default;
    onState(message);
  } else if (message.type === "presence" && current) {
    for (const seat of current.table.seats) seat.connected = message.connected.includes(seat.seat);
    renderSeats();
  } else if (message.type === "rematch") {
    announceRematch(message.by);
  } else if (message.type === "error") {
    // The host re-issued this seat's invite or handed it to a bot: this device watches from now on.
    if (message.code === "moved" || message.code === "seat_gone") { forgetSeat(tableId); client.watch(); }
    lastError = message.message;
    showNotice(message.message);
  }
}

function describeContext(message) {
  const table = message.table;
  return { table, seat: message.seat, names: table.seats.map((s) => s.name) };
}

/** What a guide or caption needs: the table, the seat's view and its legal moves. */
function describeContextFull(message) {
  return { ...describeContext(message), view: message.view, legal: message.legal, result: message.result };
}

/** Log lines for a run of views, each tagged with the record event it tells (``first``: the event
 * that leads from views[0] to views[1]). */
function describeChain(views, first, context) {
  const lines = [];
  for (let i = 1; i < views.length; i += 1) {
    let told = [];
    try {
      told = renderer.describe(views[i - 1], views[i], context);
    } catch (error) {
      reportFailure(`${context.table.game} log`, error, elements.renderError);
      told = fallback.describe(views[i - 1], views[i], context);
    }
    for (const line of told) lines.push({ line, event: first + i - 1 });
  }
  return lines;
}

function onState(message) {
  const context = describeContext(message);
  const animate = !current || current.step !== message.step;
  let fresh = [];
  if (message.history) {
    elements.log.replaceChildren();
    // The history holds the view after every event since some step: the last is this step's.
    const first = message.step - (message.history.length - 1);
    const lines = describeChain(message.history, first, context);
    for (const { line, event } of lines) elements.log.appendChild(logItem(line, false, event));
    if (!current && lines.length) fresh = lines.slice(-HAPPENED_ON_ARRIVAL);
    if (!current) happenedEarlier = Math.max(0, lines.length - fresh.length);
    if (message.history.length > 1) previousView = message.history[message.history.length - 2];
  } else if (current && current.step !== message.step) {
    // Every event since the view on screen: the views between them come with the message.
    const trail = message.trail && message.trail.from === current.step ? message.trail.views : [];
    const start = trail.length ? message.trail.from : message.step - 1;
    const chain = [current.view, ...trail, message.view];
    fresh = describeChain(chain, start, context);
    previousView = chain[chain.length - 2];
    for (const { line, event } of fresh) elements.log.appendChild(logItem(line, true, event));
  }
  if (message.history) toldDone = new Set(); // the log was written afresh: tell the moves made for you again
  const done = doneForYou(message);
  for (const line of done) elements.log.appendChild(logItem(line, !message.history, message.step));
  fresh = [...fresh, ...done.map((line) => ({ line }))];
  elements.log.scrollTop = elements.log.scrollHeight;
  if (fresh.length) holdHappened(fresh.map((entry) => entry.line));
  current = message;
  deadlineAt = message.table.deadline_in === null ? null : performance.now() + 1000 * message.table.deadline_in;
  banks.arrived();
  render(animate);
}

/** Lines for the moves the server made for this seat (its only possible move, or the standing pass it
 * asked for): in this seat's own messages only, so only its own log tells them (web/forcing.py). */
function doneForYou(message) {
  const lines = [];
  for (const note of message.done_for_you || []) {
    if (toldDone.has(note.step)) continue;
    toldDone.add(note.step);
    let label = jsonText(note.action);
    try {
      if (renderer.label) label = renderer.label(note.action, message.view);
    } catch (error) {
      reportFailure(`${message.table.game} label`, error, elements.renderError);
    }
    const text = note.why === "asked" ? _("Done for you: {label} (as you asked: your standing pass).", { label })
      : _("Done for you: {label} (it was your only possible move).", { label });
    lines.push({ text, kind: "mine" });
  }
  return lines;
}

// ---- what just happened: every line since your last decision, held on screen until you make
// the next one (or dismiss it); a long run scrolls inside the box under a count, never hidden ----
function holdHappened(lines) {
  happenedLines = [...happenedLines, ...lines];
  showHappened(true);
}

function lineText(line) {
  return typeof line === "string" ? line : line.text;
}

function showHappened(animate) {
  const box = elements.happened;
  if (!happenedLines.length) {
    box.hidden = true;
    box.replaceChildren();
    box.dataset.count = "0";
    return;
  }
  const important = [...happenedLines].reverse().find((l) => typeof l !== "string" && l.kind === "big");
  const count = happenedLines.length;
  box.hidden = false;
  box.dataset.count = String(count);
  box.className = `happened${animate ? " arrive" : ""}${important ? " big" : ""}`;
  const lineCount = ngettext("{n} line", "{n} lines", count);
  const counted = happenedEarlier ? _("· {lines} (earlier ones in the Log)", { lines: lineCount }) : `· ${lineCount}`;
  const list = h("ul", { id: "happened-list", tabindex: 0, "aria-label": _("What just happened: {lines}", { lines: lineCount }) },
    happenedLines.map((line) => h("li", { class: typeof line === "string" ? "" : line.kind || "" }, lineText(line))));
  box.replaceChildren(
    h("div", { class: "row" },
      h("strong", { class: "grow" }, _("What just happened"), " ", h("span", { class: "count" }, counted)),
      h("button", { type: "button", class: "link-button", id: "happened-dismiss", onclick: dismissHappened }, _("Dismiss"))),
    list,
  );
  // A long run scrolls within the box: show its end (the latest), the count says there is more above.
  list.scrollTop = list.scrollHeight;
}

function dismissHappened() {
  happenedLines = [];
  happenedEarlier = 0;
  showHappened(false);
}

// ---- drawing ----
function safeRender(context) {
  try {
    renderer.render(context);
    return;
  } catch (error) {
    reportFailure(`${context.table.game} table`, error, elements.renderError);
  }
  context.board.replaceChildren();
  context.controls.replaceChildren();
  fallback.render(context);
}

function extra(name, context, ...rest) {
  if (!renderer[name]) return null;
  try {
    return renderer[name](context, ...rest);
  } catch (error) {
    reportFailure(`${context.table.game} ${name}`, error, elements.renderError);
    return null;
  }
}

function render(animate) {
  const message = current;
  const table = message.table;
  const myTurn = message.seat !== null && !message.result && message.legal.length > 0;
  document.body.classList.toggle("playing", message.seat !== null && !message.result);

  elements.title.textContent = table.title;
  elements.who.textContent = message.seat === null ? _("watching") : _("you are {name}", { name: seatName(table, message.seat) });
  elements.who.classList.toggle("watching", message.seat === null); // shown on every screen size
  elements.forget.hidden = message.seat === null;
  chat.setSeat(message.seat);
  renderSeats();
  const controls = h("div");
  const context = {
    ...describeContext(message),
    view: message.view, legal: message.legal, result: message.result, step: message.step, animate, previousView,
    board: elements.board, controls,
    act: (action) => {
      if (!client.act(action, message.step)) {
        showNotice(_("not connected: reconnecting, try again in a moment"));
        return;
      }
      dismissHappened(); // the next decision is made: the summary has done its job
    },
  };
  elements.board.replaceChildren();
  safeRender(context);
  // The move buttons are rebuilt only when the decision changes: another player choosing
  // meanwhile leaves yours (and a half-made choice in a list) exactly where they were.
  const key = JSON.stringify([message.step, message.seat, message.legal]);
  if (key !== controlsKey) {
    elements.controls.replaceChildren(...controls.childNodes);
    controlsKey = key;
  }
  markChoice(message);
  elements.turn.textContent = turnText(message);
  elements.hint.textContent = myTurn ? extra("hint", context) || "" : "";
  if (myTurn && waitingForMe(message) && message.legal.length === 1) {
    // The server makes a lone move for you (web/forcing.py): say so, so nobody waits on a tap.
    const lone = _("Your only possible move: it is made for you in a few seconds (or tap it now).");
    elements.hint.textContent = `${elements.hint.textContent} ${lone}`.trim();
  }
  elements.hint.hidden = !elements.hint.textContent;
  const privateNode = message.seat !== null && !message.result ? extra("privateInfo", context) : null;
  elements.private.replaceChildren(...(privateNode ? [privateNode] : []));
  elements.private.hidden = !privateNode;
  // Machine-readable state for tests and assistive tools: whose move it is, and the step.
  document.body.dataset.step = String(message.step);
  document.body.dataset.turn = message.result ? "over" : myTurn && waitingForMe(message) ? "mine" : "wait";
  const waiting = message.view.choices ? message.view.choices.waiting_for : [];
  elements.waiting.hidden = !!(message.legal.length || message.result || !waiting.length);
  elements.waiting.textContent = elements.waiting.hidden ? "" : _("Waiting for {names}.", { names: listWords(waiting.map((s) => seatName(table, s))) });
  yourTurnSignal(document.body.dataset.turn === "mine", table);
  renderStandingPass(message);
  renderClockWaits(message);
  renderSummary(message, context);
  drawCoach();
  fitPanel();
  tick();
}

/**
 * On a phone the move panel lies at the bottom of the screen while its moves fit there. When they
 * would not (or the game's decisions ask about the whole table) it follows the board in the page
 * instead: it never covers the board with choices out of reach inside it. "What just happened"
 * does not count beyond its smallest height: in the sheet a long one scrolls inside its own box.
 */
function fitPanel() {
  const body = document.body;
  if (renderer && renderer.panelInFlow) {
    body.classList.add("panel-in-flow");
    return;
  }
  const flowing = body.classList.contains("panel-in-flow");
  // A little slack the other way, so a panel near the limit does not flip at every move.
  const limit = window.innerHeight * (flowing ? 0.42 : 0.46);
  body.classList.toggle("panel-in-flow", sheetNeeds(elements.controlsPanel, elements.happened) > limit);
}

/** The seat's standing pass (Eigen Kweek: pass the character windows this round unless you act). */
function renderStandingPass(message) {
  const standing = message.standing_pass;
  elements.standingPass.hidden = !standing;
  if (!standing) return;
  elements.standingPassLabel.textContent = standing.label;
  elements.standingPassBox.checked = standing.on;
}

elements.standingPassBox.addEventListener("change", () => {
  if (!client.send({ type: "standing_pass", on: elements.standingPassBox.checked })) {
    elements.standingPassBox.checked = !elements.standingPassBox.checked;
    showNotice(_("not connected: reconnecting, try again in a moment"));
  }
});

/** A timed table whose clock waits for everyone's link to be opened; the host may start it. */
function renderClockWaits(message) {
  const waits = !!message.table.clock_waits && !message.result;
  elements.clockWaits.hidden = !waits;
  elements.clockStart.hidden = !waits || !hostToken();
}

function hostToken() {
  const hosted = hostedTables().find((t) => t.id === tableId);
  return hosted ? (/#host=([A-Za-z0-9_-]+)/.exec(hosted.host) || [])[1] : null;
}

elements.clockStart.addEventListener("click", async () => {
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/clock`, {
      method: "POST", headers: { "x-host-token": hostToken() || "" },
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error || _("the server answered {status}", { status: response.status }));
  } catch (error) {
    showNotice(_("The timer could not be started: {why}", { why: error.message }));
  }
});

function waitingForMe(message) {
  const choices = message.view.choices;
  return !choices || choices.waiting_for.includes(message.seat);
}

/** Highlight the button of the secret choice already made (it may be changed until all have chosen). */
function markChoice(message) {
  const mine = message.view.choices ? message.view.choices.mine : null;
  const chosen = mine === null || mine === undefined ? null : JSON.stringify(mine);
  for (const button of elements.controls.querySelectorAll("button[data-action]")) {
    const isMine = chosen !== null && button.dataset.action === chosen;
    button.classList.toggle("chosen", isMine);
    button.setAttribute("aria-pressed", isMine ? "true" : "false");
  }
  if (chosen !== null && message.legal.length) {
    let label = jsonText(mine);
    try {
      if (renderer.label) label = renderer.label(mine, message.view);
    } catch (error) {
      reportFailure(`${message.table.game} label`, error, elements.renderError);
    }
    elements.myChoice.textContent = _("Your secret choice: {label}. You may change it until everyone has chosen.", { label });
    elements.myChoice.hidden = false;
  } else {
    elements.myChoice.hidden = true;
    elements.myChoice.textContent = "";
  }
}

function turnText(message) {
  if (message.result) return _("Game over");
  const choices = message.view.choices || { waiting_for: [], chosen: [] };
  if (message.seat !== null && choices.waiting_for.includes(message.seat)) return _("Your move");
  if (message.seat !== null && choices.chosen.includes(message.seat)) return _("Chosen: waiting for the others");
  return message.seat === null ? _("Watching") : _("Waiting for the others");
}

// ---- your turn: the tab title, a vibration where supported, and an optional sound ----
function yourTurnSignal(mine, table) {
  document.title = mine ? _("● Your move · {title} · gamebag", { title: table.title }) : `${table.title} · gamebag`;
  if (mine && !wasMyTurn) {
    // Browsers allow vibration only after the person has touched the page once.
    const touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    if (navigator.vibrate && touched) {
      try { navigator.vibrate(150); } catch (ignored) { /* not supported here */ }
    }
    if (soundOn) beep();
  }
  wasMyTurn = mine;
}

function showSound() {
  // On a phone the top bar keeps one row: the sound button is its symbol there (aria-pressed tells).
  elements.sound.replaceChildren(
    h("span", { class: "wide-label" }, soundOn ? _("Sound: on") : _("Sound: off")),
    h("span", { class: "short-label", "aria-hidden": "true" }, soundOn ? _("♪ on") : _("♪ off")),
  );
  elements.sound.setAttribute("aria-pressed", soundOn ? "true" : "false");
}

elements.sound.addEventListener("click", () => {
  soundOn = !soundOn;
  window.localStorage.setItem("gamebag-sound", soundOn ? "on" : "off");
  showSound();
  if (soundOn) beep();
});
showSound();

function renderSeats() {
  if (!current) return;
  const { table, view, seat: me } = current;
  const choices = view.choices || { waiting_for: [], chosen: [] };
  const simultaneous = choices.waiting_for.length + choices.chosen.length > 1;
  elements.seats.replaceChildren(
    ...table.seats.map((seat) => {
      let state = null;
      if (choices.chosen.includes(seat.seat)) state = h("span", { class: "badge chosen" }, _("chosen ✓"));
      else if (choices.waiting_for.includes(seat.seat)) {
        state = h("span", { class: `badge ${simultaneous ? "waiting" : "turn"}` }, simultaneous ? _("choosing…") : _("to play"));
      }
      const presence = seat.bot ? _("bot") : seat.connected ? _("connected") : _("not connected");
      return h(
        "span",
        { class: `seat-chip${seat.seat === me ? " me" : ""}`, "data-seat": seat.seat },
        h("span", { class: `status-dot ${seat.bot || seat.connected ? "online" : ""}`, role: "img", "aria-label": presence, title: presence }),
        seat.name,
        seat.bot ? h("span", { class: "badge" }, _("bot")) : null,
        state,
        banks.badge(current, seat),
      );
    }),
  );
  banks.renderOwn(current);
}

// ---- the end of the game ----
/** The final scores, best first in the game's own direction: by place (share of the win, then
 * score; the server ranks them), saying so where the lowest score wins. */
function standingsText(result, names) {
  const seats = result.scores.map((score, s) => s);
  const places = result.places || seats.map(() => 1);
  seats.sort((a, b) => places[a] - places[b] || a - b);
  const line = seats.map((s) => `${names[s]} ${formatNumber(result.scores[s])}`).join(" · ");
  return result.lower_score_wins ? _("{scores} (the lowest score wins)", { scores: line }) : line;
}

function renderSummary(message, context) {
  const box = elements.summary;
  if (!message.result) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  if (box.dataset.step === String(message.step) && box.dataset.next === String(!!message.next)) return;
  box.dataset.step = String(message.step);
  box.dataset.next = String(!!message.next);
  const table = message.table;
  const result = message.result;
  const names = context.names;
  const winners = result.winners.map((s) => names[s]);
  const headline = !winners.length ? _("Game over: no winner.")
    : winners.length > 1 ? _("Game over: {names} share the win.", { names: listWords(winners) })
      : _("Game over: {name} wins.", { name: winners[0] });
  const replayHref = `/replay/${encodeURIComponent(table.id)}${token ? `#seat=${token}` : ""}`;
  const why = extra("explainEnd", context, result);
  const rulebook = extra("rulebookWin", context);
  const rounds = result.rounds || [];
  const roundTable = rounds.length
    ? h("div", { class: "table-scroll rounds", tabindex: 0, role: "region", "aria-label": _("Scores by round") },
      h("table", { class: "list", id: "scores-by-round" },
        h("caption", {}, _("Scores at the end of each round")),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, _("Round")), names.map((n) => h("th", { scope: "col", title: n }, headerWords(n))))),
        h("tbody", {}, rounds.map((row) => h("tr", {}, h("th", { scope: "row" }, row.round ?? _("end")),
          row.scores.map((s) => h("td", {}, formatNumber(s))))))))
    : null;
  const revealed = result.final_views ? extra("revealEnd", context, result.final_views) : null;
  const rematchButton = message.next
    ? h("a", {
      class: "button primary", href: message.next.path, id: "rematch-join",
      // The host joins through the server, which hands back the rematch's host link to keep.
      onclick: (event) => {
        if (!hostedTables().some((t) => t.id === tableId)) return;
        event.preventDefault();
        startRematch(event);
      },
    }, _("Join the rematch"))
    : message.seat !== null
      ? h("button", { type: "button", class: "primary", id: "rematch", onclick: startRematch }, _("Rematch with the same seats"))
      : null;
  box.hidden = false;
  box.replaceChildren(
    h("div", { class: "result-banner", id: "result-banner" },
      h("h2", {}, headline),
      h("p", { class: "scores", id: "standings" }, standingsText(result, names)),
      why ? h("p", { id: "why" }, why) : null,
      rulebook ? h("blockquote", { class: "rulebook" }, h("span", { class: "small" }, _("The rulebook:")), " ", _("“{quote}”", { quote: rulebook })) : null,
      h("div", { class: "row actions" },
        rematchButton,
        h("a", { href: `/api/tables/${encodeURIComponent(table.id)}/record`, download: "", class: "button" }, _("Download the record")),
        h("a", { href: replayHref, class: "button" }, _("Replay step by step")),
        h("button", { type: "button", id: "analysis-open", onclick: (event) => openAnalysis(event, table.id, names) }, _("Analysis"))),
      h("p", { class: "notice", id: "rematch-notice", role: "alert" }),
      rematchNews ? h("p", { id: "rematch-news", class: "rematch-news", role: "status" }, rematchNews) : null,
      h("p", { id: "series-tally", hidden: true })),
    h("div", { class: "summary-detail" }, roundTable, revealed ? h("div", { class: "revealed", id: "revealed" }, h("h3", {}, _("Everything revealed")), revealed) : null),
    h("div", { class: "analysis", id: "analysis", hidden: true }),
  );
  showTally(table.id);
}

/** Wins per seat over this table's series of rematches, under the result (from the second game on). */
async function showTally(id) {
  const response = await fetch(`/api/tables/${encodeURIComponent(id)}/series`).catch(() => null);
  const tally = response && response.ok ? await response.json() : null;
  const line = byId("series-tally");
  if (!tally || !line || tally.games < 2) return;
  const wins = listWords(tally.wins.map((w) => ngettext("{name} {n} win", "{name} {n} wins", w.wins, { name: w.name })));
  line.textContent = _("Over {games} games of this series: {wins}.", { games: formatNumber(tally.games), wins });
  line.hidden = false;
}

/** Who opened the rematch, told to everyone at the table as it opens (next to its Join button). */
function announceRematch(by) {
  const you = current && current.seat !== null && seatName(current.table, current.seat) === by;
  const text = you ? _("You started a rematch with the same seats.")
    : _("{name} started a rematch with the same seats: join it with the button above.", { name: by });
  rematchNews = text; // kept when the end screen is drawn again
  const box = byId("rematch-news") || h("p", { id: "rematch-news", class: "rematch-news", role: "status" });
  box.textContent = text;
  const banner = byId("result-banner");
  if (banner && !box.isConnected) banner.appendChild(box);
  if (!banner) showNotice(text);
}

// The analysis view of the end screen (static/js/analysis.js), loaded when asked for.
async function openAnalysis(event, tableId, names) {
  event.target.disabled = true;
  const box = byId("analysis");
  box.hidden = false;
  const { showAnalysis } = await import("./analysis.js");
  await showAnalysis(box, tableId, names);
}

let leaving = false;
function goTo(path) {
  if (leaving) return; // the answer and the table's own message may both say where: go once
  leaving = true;
  window.location.assign(path);
}

async function startRematch(event) {
  const button = event.currentTarget;
  button.disabled = true;
  button.textContent = _("Opening the rematch…");
  try {
    // Opened in this browser from the lobby: the rematch is listed with it ("Tables you opened").
    const hosted = hostedTables().find((t) => t.id === tableId);
    const hostToken = hosted ? (/#host=([A-Za-z0-9_-]+)/.exec(hosted.host) || [])[1] : null;
    const headers = { ...(token ? { "x-seat-token": token } : {}), ...(hostToken ? { "x-host-token": hostToken } : {}) };
    // The answer takes the page there (after keeping what it says), even when the table's own
    // message about the rematch comes first.
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/rematch`, { method: "POST", headers });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error || _("the server answered {status}", { status: response.status }));
    const title = (hosted && hosted.game) || current.table.title;
    if (answer.host) rememberHosted({ id: answer.id, game: _("{title} (rematch)", { title }), host: answer.host, at: Date.now() });
    goTo(answer.path);
  } catch (error) {
    button.disabled = false;
    button.textContent = _("Rematch with the same seats");
    byId("rematch-notice").textContent = _("The rematch could not be opened: {why}", { why: error.message });
  }
}

// ---- rules sheet and log drawer ----
async function openRules() {
  const quick = byId("rules-quick");
  // The guide takes its numbers from the options in force (a function of the table's context).
  const guide = renderer && current
    ? typeof renderer.howToPlay === "function" ? extra("howToPlay", describeContextFull(current)) : renderer.howToPlay
    : null;
  if (guide) quick.replaceChildren(h("ul", {}, guide.map((line) => h("li", {}, line))));
  if (typeof elements.rules.showModal === "function") elements.rules.showModal();
  else elements.rules.setAttribute("open", "");
  if (!rulesLoaded && current) {
    rulesLoaded = true;
    try {
      // The players' rules with this table's own numbers; the same text has a page of its own.
      const setup = new URLSearchParams({ players: current.table.players, options: JSON.stringify(current.table.options) });
      const game = encodeURIComponent(current.table.game);
      const response = await fetch(`/api/games/${game}/players-rules?${setup}`);
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.error);
      const [first, ...rest] = answer.markdown.split("\n");
      byId("rules-full").replaceChildren(
        h("p", {}, h("a", { href: `/rules/${game}?${setup}`, target: "_blank", rel: "noopener" }, _("Open the full rules on a page of their own"))),
        ...markdownNodes(first.startsWith("# ") ? rest.join("\n") : answer.markdown),
      );
    } catch (error) {
      rulesLoaded = false;
      byId("rules-full").textContent = _("The rules could not be loaded; try again.");
    }
  }
}

byId("rules-open").addEventListener("click", openRules);
byId("rules-close").addEventListener("click", () => elements.rules.close());

function setLog(open) {
  elements.logPanel.classList.toggle("open", open);
  byId("log-open").setAttribute("aria-expanded", open ? "true" : "false");
  if (open) byId("log-close").focus();
}
byId("log-open").addEventListener("click", () => setLog(!elements.logPanel.classList.contains("open")));
byId("log-close").addEventListener("click", () => {
  setLog(false);
  byId("log-open").focus();
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && elements.logPanel.classList.contains("open")) setLog(false);
});

// On a phone the move panel is fixed at the bottom: keep the page's end clear of it.
window.addEventListener("resize", () => current && fitPanel());
if (window.ResizeObserver) {
  new ResizeObserver(() => {
    const fixed = window.getComputedStyle(elements.controlsPanel).position === "fixed";
    document.body.style.paddingBottom = fixed ? `${elements.controlsPanel.offsetHeight + 8}px` : "";
  }).observe(elements.controlsPanel);
}

function drawCoach() {
  const message = current;
  renderCoach({
    element: elements.coach, table: message.table, seat: message.seat, token, tableId, step: message.step,
    over: !!message.result, myTurn: message.seat !== null && !message.result && message.legal.length > 1,
    redraw: () => { if (current === message) drawCoach(); }, notice: showNotice,
  });
}

function showNotice(text) {
  elements.notice.textContent = text;
  window.clearTimeout(noticeTimer);
  noticeTimer = window.setTimeout(() => {
    elements.notice.textContent = "";
  }, 6000);
}

function tick() {
  if (deadlineAt === null || !current || current.result) {
    elements.timer.textContent = "";
    return;
  }
  const left = Math.max(0, (deadlineAt - performance.now()) / 1000);
  elements.timer.textContent = _("{seconds} s left", { seconds: formatNumber(Math.ceil(left)) });
  elements.timer.className = `timer${left < 10 ? " low" : ""}`;
}

elements.forget.addEventListener("click", () => {
  // A shared device: the seat's token leaves it; this page watches from now on.
  forgetSeat(tableId);
  window.location.replace(window.location.pathname);
});
if (inviteProblem) {
  const problem = byId("invite-problem");
  problem.textContent = _("{problem}. You are watching this table.", { problem: inviteProblem });
  problem.hidden = false;
}

window.setInterval(tick, 250);
const chat = new TableChat(client);
window.setInterval(() => banks.tick(current), 1000);
client.connect();
