// The coach at a practice table (docs/analysis.md): whether it is offered and on (every reader
// sees it), this seat's consent, and, while it is on, the advice at each of this seat's decisions.
// The server decides everything: it refuses advice unless the host offered the coach and every
// person's seat agreed, and never gives advice to spectators.
import { h } from "./common.js";
import { _, formatPercent } from "./i18n.js";

const POLL_MS = 400;
const POLL_LIMIT = 150; // about a minute of asking while the advice is worked out

let adviceKey = null; // the decision the advice on screen (or being asked for) belongs to
let adviceNode = null;

function call(tableId, token, path, body) {
  return fetch(`/api/tables/${encodeURIComponent(tableId)}/coach${path}`, {
    method: body ? "POST" : "GET",
    headers: { "x-seat-token": token || "", ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  }).then(async (response) => ({ ok: response.ok, status: response.status, answer: await response.json().catch(() => ({})) }));
}

function percent(value) {
  return formatPercent(Math.max(0, Math.round(100 * value)) / 100);
}

function actionText(action) {
  if (Array.isArray(action)) return action.map(actionText).join("+");
  if (action && typeof action === "object") return Object.entries(action).map(([k, v]) => `${k} ${actionText(v)}`).join(", ");
  return String(action);
}

function adviceView(advice) {
  const rows = advice.choices.map((choice) => h("li", {},
    h("strong", {}, choice.said || actionText(choice.action)), " ", percent(choice.value),
    choice.interval ? h("span", { class: "muted small" }, " ", _("({low}–{high})", { low: percent(choice.interval[0]), high: percent(choice.interval[1]) })) : null));
  return h("div", { id: "coach-advice", class: "coach-advice", role: "status" },
    h("p", {}, advice.words),
    h("ol", { class: "coach-choices", "aria-label": _("win chance after each choice") }, rows));
}

async function fetchAdvice(state, key) {
  for (let tries = 0; tries < POLL_LIMIT && adviceKey === key; tries += 1) {
    const { ok, answer } = await call(state.tableId, state.token, "/advice");
    if (adviceKey !== key) return;
    if (!ok || answer.status === "failed") {
      adviceNode = h("p", { id: "coach-advice", class: "small muted" },
        _("No advice this time: {why}", { why: answer.error || _("the coach is unavailable") }));
      state.redraw();
      return;
    }
    if (answer.status === "done") {
      adviceNode = adviceView(answer.advice);
      state.redraw();
      return;
    }
    await new Promise((resolve) => window.setTimeout(resolve, POLL_MS));
  }
}

/**
 * Draw the coach panel into ``state.element``: ``state`` has the table facts (``table``), this
 * reader's ``seat`` (null: a spectator), its ``token``, ``tableId``, ``myTurn``, ``step`` and a
 * ``redraw`` callback, and ``notice`` to show an error.
 */
export function renderCoach(state) {
  const coach = state.table.coach || { offered: false, on: false, agreed: [], humans: [] };
  const element = state.element;
  element.hidden = !coach.offered && !coach.on;
  if (element.hidden) {
    adviceKey = null;
    adviceNode = null;
    element.replaceChildren();
    return;
  }
  const status = coach.on
    ? _("Coach on: every player agreed. It shows the win chance after each choice at each player's own decisions.")
    : _("The host offers a coach for this practice game. It comes on once every player agrees ({agreed} of {players} so far).",
      { agreed: coach.agreed.length, players: coach.humans.length });
  const parts = [h("p", { id: "coach-status", class: "small" }, h("strong", {}, coach.on ? _("Coach on") : _("Coach offered")), " · ", status)];
  if (state.seat !== null && coach.humans.includes(state.seat) && !state.over) {
    const agreed = coach.agreed.includes(state.seat);
    parts.push(h("button", {
      id: "coach-consent",
      type: "button",
      "aria-pressed": agreed ? "true" : "false",
      onclick: async () => {
        const { ok, answer } = await call(state.tableId, state.token, "/consent", { agree: !agreed });
        if (!ok) state.notice(answer.error || _("the coach could not be changed"));
      },
    }, agreed ? _("Take my consent back") : _("I agree to the coach")));
  }
  const key = coach.on && state.myTurn ? `${state.step}` : null;
  if (key !== adviceKey) {
    adviceKey = key;
    adviceNode = key ? h("p", { id: "coach-advice", class: "small muted" }, _("The coach is thinking…")) : null;
    if (key) fetchAdvice(state, key);
  }
  if (adviceNode) parts.push(adviceNode);
  element.replaceChildren(...parts);
}
