// The replay page: a finished game step by step, as one seat saw it (invite link) or as spectators did,
// with the players' chat shown at the step each line was said.
import { chatItem } from "./chat.js";
import { describeRun, h, loadRenderer, logItem, readToken, reportFailure, tableIdFromPath } from "./common.js";
import { _, formatNumber, ngettext } from "./i18n.js";

const tableId = tableIdFromPath();
const token = readToken(tableIdFromPath());
const elements = {
  title: document.getElementById("title"),
  board: document.getElementById("board"),
  seats: document.getElementById("seats"),
  log: document.getElementById("log"),
  slider: document.getElementById("slider"),
  position: document.getElementById("position"),
  notice: document.getElementById("notice"),
  download: document.getElementById("download"),
  evaluation: document.getElementById("evaluation"),
  chat: document.getElementById("replay-chat"),
  chatLines: document.getElementById("chat-lines"),
  chatCount: document.getElementById("replay-chat-count"),
  evaluationList: document.getElementById("evaluation-list"),
};
// What the replay's chat says.
const CHAT_TEXT = {
  count: (said, total) => ngettext("{n} line of the game's {total} said by this step.",
    "{n} lines of the game's {total} said by this step.", said, { total: formatNumber(total) }),
};
let data = null;
let analysis = null; // the game's analysis, once the server has it (static/js/analysis.js)
let evaluate = null;
let renderer = null;
let index = 0;
let playing = null;
let chatLines = []; // the players' chat of the game, each line with the replay's step it was said at

function show(target, animate) {
  index = Math.max(0, Math.min(data.steps.length - 1, target));
  elements.slider.value = index;
  elements.position.textContent = _("step {step} of {steps}", { step: formatNumber(index + 1), steps: formatNumber(data.steps.length) });
  const table = data.table;
  const context = {
    table, seat: data.seat, names: table.seats.map((s) => s.name), view: data.steps[index], legal: [],
    result: index === data.steps.length - 1 ? data.result : null, animate, board: elements.board,
    controls: h("div"), act: () => {},
  };
  elements.seats.replaceChildren(...table.seats.map((s) => h("span", { class: `seat-chip${s.seat === data.seat ? " me" : ""}` }, s.name, s.bot ? h("span", { class: "badge" }, _("bot")) : null)));
  elements.board.replaceChildren();
  try {
    renderer.render(context);
    // What the seat held in secret at this step (its own view only), below the table.
    const secret = data.seat !== null && renderer.privateInfo && !context.result ? renderer.privateInfo(context) : null;
    if (secret) elements.board.appendChild(h("div", { class: "private replay-private" }, secret));
  } catch (error) {
    reportFailure(`${table.game} replay`, error, elements.notice);
  }
  elements.log.replaceChildren(...describeRun(renderer, data.steps.slice(0, index + 1), context).map((line, i, all) => logItem(line, animate && i === all.length - 1)));
  const evaluation = evaluate ? evaluate(analysis, index) : null;
  elements.evaluationList.replaceChildren(...(evaluation || []).map((line) => h("li", {}, line)));
  elements.evaluation.hidden = !evaluation;
  elements.log.scrollTop = elements.log.scrollHeight;
  showChat(animate);
}

/** The players' chat up to this step: each line appears at the step it was said at. */
function showChat(animate) {
  const said = chatLines.filter((line) => line.replay_step <= index);
  elements.chatLines.replaceChildren(...said.map((line) => chatItem(line, animate && line.replay_step === index)));
  elements.chatCount.textContent = CHAT_TEXT.count(said.length, chatLines.length);
  elements.chatLines.scrollTop = elements.chatLines.scrollHeight;
}

async function loadChat() {
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/chat`).catch(() => null);
  const answer = response && response.ok ? await response.json() : null;
  if (!answer || !answer.lines.length) return;
  chatLines = answer.lines;
  elements.chat.hidden = false;
  showChat(false);
}

async function start() {
  elements.download.href = `/api/tables/${encodeURIComponent(tableId)}/record`;
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/replay`, { headers: token ? { "x-seat-token": token } : {} });
  const answer = await response.json();
  if (!response.ok) {
    elements.notice.textContent = answer.error || _("this game cannot be replayed");
    return;
  }
  data = answer;
  renderer = await loadRenderer(data.table.game);
  elements.title.textContent = _("Replay · {title} · table {id}", { title: data.table.title, id: data.table.id });
  elements.slider.max = data.steps.length - 1;
  elements.slider.addEventListener("input", () => show(Number(elements.slider.value), false));
  document.getElementById("first").addEventListener("click", () => show(0, false));
  document.getElementById("prev").addEventListener("click", () => show(index - 1, true));
  document.getElementById("next").addEventListener("click", () => show(index + 1, true));
  document.getElementById("last").addEventListener("click", () => show(data.steps.length - 1, false));
  document.getElementById("play").addEventListener("click", (event) => {
    if (playing) {
      window.clearInterval(playing);
      playing = null;
      event.target.textContent = _("▶ Play");
      return;
    }
    event.target.textContent = _("Pause");
    playing = window.setInterval(() => {
      if (index >= data.steps.length - 1) {
        window.clearInterval(playing);
        playing = null;
        event.target.textContent = _("▶ Play");
      } else show(index + 1, true);
    }, 1200);
  });
  show(0, false);
  loadChat();
  // Each step's evaluation, once the analysis is ready (the server runs it off its event loop).
  import("./analysis.js").then(async (module) => {
    analysis = await module.fetchAnalysis(tableId);
    evaluate = module.stepEvaluation;
    show(index, false);
  }).catch(() => {});
}

start();
