// The table page: one seat's (or a spectator's) live view of a game, with its log.
import { TableClient } from "./client.js";
import {
  describeRun, h, jsonText, listWords, loadRenderer, logItem, readToken, seatName, tableIdFromPath,
} from "./common.js";

const tableId = tableIdFromPath();
const token = readToken();
const elements = {
  title: document.getElementById("title"),
  who: document.getElementById("who"),
  status: document.getElementById("status"),
  seats: document.getElementById("seats"),
  board: document.getElementById("board"),
  controls: document.getElementById("controls"),
  turn: document.getElementById("turn"),
  timer: document.getElementById("timer"),
  notice: document.getElementById("notice"),
  log: document.getElementById("log"),
  result: document.getElementById("result"),
};

let renderer = null;
let current = null; // the last state message
let deadlineAt = null;
let noticeTimer = null;
let queue = Promise.resolve();

const client = new TableClient(tableId, token, {
  status(online) {
    elements.status.className = `status-dot ${online ? "online" : "offline"}`;
    elements.status.title = online ? "connected" : "reconnecting…";
  },
  message(message) {
    // Handle messages strictly in order, even while a renderer module loads.
    queue = queue.then(() => handle(message)).catch((error) => console.error(error));
  },
});

async function handle(message) {
  if (message.type === "state") {
    if (!renderer) renderer = await loadRenderer(message.table.game);
    onState(message);
  } else if (message.type === "presence" && current) {
    for (const seat of current.table.seats) seat.connected = message.connected.includes(seat.seat);
    renderSeats();
  } else if (message.type === "error") {
    showNotice(message.message);
  }
}

function describeContext(message) {
  const table = message.table;
  return { table, seat: message.seat, names: table.seats.map((s) => s.name) };
}

function onState(message) {
  const context = describeContext(message);
  const animate = !current || current.step !== message.step;
  if (message.history) {
    elements.log.replaceChildren();
    const lines = describeRun(renderer, message.history, context);
    for (const line of lines) elements.log.appendChild(logItem(line, false));
  } else if (current) {
    for (const line of renderer.describe(current.view, message.view, context)) {
      elements.log.appendChild(logItem(line, true));
    }
  }
  elements.log.scrollTop = elements.log.scrollHeight;
  current = message;
  deadlineAt = message.table.deadline_in === null ? null : performance.now() + 1000 * message.table.deadline_in;
  render(animate);
}

function render(animate) {
  const message = current;
  const table = message.table;
  document.title = `${table.title} · gamebag`;
  document.body.classList.toggle("playing", message.seat !== null && !message.result);
  elements.title.textContent = `${table.title} · table ${table.id}`;
  elements.who.textContent = message.seat === null ? "watching" : `you are ${seatName(table, message.seat)}`;
  renderSeats();
  const context = {
    ...describeContext(message),
    view: message.view,
    legal: message.legal,
    result: message.result,
    step: message.step,
    animate,
    board: elements.board,
    controls: elements.controls,
    act: (action) => {
      if (!client.act(action, message.step)) showNotice("not connected: reconnecting, try again in a moment");
    },
  };
  elements.board.replaceChildren();
  elements.controls.replaceChildren();
  renderer.render(context);
  elements.turn.textContent = turnText(message);
  // Machine-readable state for tests and assistive tools: whose move it is, and the step.
  const waitingForMe = message.seat !== null && message.view.choices && message.view.choices.waiting_for.includes(message.seat);
  document.body.dataset.step = String(message.step);
  document.body.dataset.turn = message.result ? "over" : waitingForMe && message.legal.length ? "mine" : "wait";
  const mine = message.view.choices ? message.view.choices.mine : null;
  if (mine !== null && mine !== undefined && message.legal.length) {
    const label = renderer.label ? renderer.label(mine, message.view) : jsonText(mine);
    elements.controls.appendChild(
      h("p", { class: "small", id: "my-choice" }, `Your secret choice: ${label}. You may change it until everyone has chosen.`),
    );
  }
  if (!message.legal.length && !message.result) {
    const waiting = message.view.choices ? message.view.choices.waiting_for : [];
    if (waiting.length) {
      elements.controls.appendChild(
        h("p", { class: "muted" }, `Waiting for ${listWords(waiting.map((s) => seatName(table, s)))}.`),
      );
    }
  }
  renderResult(message);
  tick();
}

function turnText(message) {
  if (message.result) return "Game over";
  const choices = message.view.choices || { waiting_for: [], chosen: [] };
  if (message.seat !== null && choices.waiting_for.includes(message.seat)) return "Your move";
  if (message.seat !== null && choices.chosen.includes(message.seat)) return "Chosen: waiting for the others";
  return "";
}

function renderSeats() {
  if (!current) return;
  const { table, view, seat: me } = current;
  const choices = view.choices || { waiting_for: [], chosen: [] };
  const simultaneous = choices.waiting_for.length + choices.chosen.length > 1;
  elements.seats.replaceChildren(
    ...table.seats.map((seat) => {
      let state = null;
      if (choices.chosen.includes(seat.seat)) state = h("span", { class: "badge chosen" }, "chosen ✓");
      else if (choices.waiting_for.includes(seat.seat)) {
        state = h("span", { class: `badge ${simultaneous ? "waiting" : "turn"}` }, simultaneous ? "choosing…" : "to play");
      }
      return h(
        "span",
        { class: `seat-chip${seat.seat === me ? " me" : ""}`, "data-seat": seat.seat },
        h("span", {
          class: `status-dot ${seat.bot || seat.connected ? "online" : ""}`,
          title: seat.bot ? "bot" : seat.connected ? "connected" : "not connected",
        }),
        seat.name,
        seat.bot ? h("span", { class: "badge" }, "bot") : null,
        state,
      );
    }),
  );
}

function renderResult(message) {
  elements.result.replaceChildren();
  if (!message.result) return;
  const table = message.table;
  const winners = message.result.winners.map((s) => seatName(table, s));
  const scores = message.result.scores.map((score, s) => `${seatName(table, s)} ${score}`).join(" · ");
  const replayHref = `/replay/${encodeURIComponent(table.id)}${token ? `#seat=${token}` : ""}`;
  elements.result.appendChild(
    h(
      "div",
      { class: "result-banner", id: "result-banner" },
      `Game over: ${winners.length ? `${listWords(winners)} ${winners.length > 1 ? "share the win" : "wins"}` : "no winner"}. `,
      h("span", { class: "small" }, scores),
      " ",
      h("a", { href: replayHref }, "Replay step by step"),
      " · ",
      h("a", { href: `/api/tables/${encodeURIComponent(table.id)}/record`, download: "" }, "Download the record"),
    ),
  );
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
  elements.timer.textContent = `${Math.ceil(left)} s left`;
  elements.timer.className = `timer${left < 10 ? " low" : ""}`;
}

window.setInterval(tick, 250);
client.connect();
