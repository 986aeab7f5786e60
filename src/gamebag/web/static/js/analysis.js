// The analysis of a finished game (docs/analysis.md): each seat's accuracy and luck, a chart of each
// seat's winning chance through the game, the worst decisions in words, and each replay step's evaluation.
// The server runs the analysis in its worker pool; these functions poll /api/tables/{id}/analysis.
import { h, svg } from "./common.js";

const POLL_MS = 1000;
const COLOURS = ["#1b6ac9", "#c2410c", "#15803d", "#7e22ce", "#b91c1c", "#0e7490", "#a16207", "#4b5563"];

/** Poll the table's analysis until it is done or failed; ``onProgress(answer)`` hears each answer. */
export async function fetchAnalysis(tableId, onProgress) {
  for (;;) {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/analysis`);
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error || "the analysis is not available");
    if (onProgress) onProgress(answer);
    if (answer.status !== "running") return answer;
    await new Promise((resolve) => window.setTimeout(resolve, POLL_MS));
  }
}

function percent(value) {
  return `${Math.max(0, 100 * value).toFixed(0)}%`; // never "-0%" from a rounding below zero
}

function progressText(answer) {
  return `Analysing… ${answer.done} of ${answer.total} events (${answer.seconds} s)`;
}

/** A line chart of each seat's winning chance after each of its decisions. */
function chart(answer, names) {
  const width = 560;
  const height = 180;
  const last = Math.max(1, answer.steps[answer.steps.length - 1]);
  const x = (event) => 30 + (event / last) * (width - 40);
  const y = (value) => 10 + (1 - value) * (height - 30);
  const picture = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "analysis-chart", role: "img",
    "aria-label": "Each player's winning chance through the game" });
  for (const level of [0, 0.5, 1]) {
    picture.appendChild(svg("line", { x1: 30, x2: width - 10, y1: y(level), y2: y(level), stroke: "#ccc" }));
    const label = svg("text", { x: 2, y: y(level) + 4, "font-size": 11 });
    label.textContent = percent(level);
    picture.appendChild(label);
  }
  Object.entries(answer.curves).forEach(([seat, points]) => {
    if (!points.length) return;
    const path = points.map(([event, value], i) => `${i ? "L" : "M"}${x(event).toFixed(1)},${y(value).toFixed(1)}`).join(" ");
    const colour = COLOURS[Number(seat) % COLOURS.length];
    picture.appendChild(svg("path", { d: path, fill: "none", stroke: colour, "stroke-width": 2 }));
  });
  const legend = h("p", { class: "small" }, Object.keys(answer.curves).map((seat) =>
    h("span", { style: { color: COLOURS[Number(seat) % COLOURS.length], marginRight: "1em" } }, `■ ${names[Number(seat)] ?? `seat ${seat}`}`)));
  return h("div", {}, picture, legend);
}

function luckText(seat) {
  const luck = `${seat.luck >= 0 ? "+" : ""}${seat.luck.toFixed(2)}`;
  if (!seat.luck_interval) return luck;
  const [low, high] = seat.luck_interval;
  return `${luck} (${low.toFixed(2)} to ${high.toFixed(2)})`;
}

/** The analysis panel of the end screen, filled in as the analysis runs. */
export async function showAnalysis(box, tableId, names) {
  const status = h("p", { class: "small", role: "status" }, "Analysing…");
  box.replaceChildren(h("h3", {}, "Analysis"), status);
  let answer;
  try {
    answer = await fetchAnalysis(tableId, (a) => { status.textContent = progressText(a); });
  } catch (error) {
    status.textContent = String(error.message || error);
    return;
  }
  if (answer.status !== "done") {
    status.textContent = `The analysis could not finish: ${answer.error}`;
    return;
  }
  const analysis = answer.analysis;
  status.textContent = `${analysis.method} (${answer.seconds} s).`;
  const rows = analysis.seats.map((seat) => h("tr", {},
    h("th", { scope: "row" }, names[seat.seat] ?? `seat ${seat.seat}`),
    h("td", {}, seat.accuracy === null ? "–" : `${seat.accuracy.toFixed(1)}%`),
    h("td", {}, luckText(seat)),
    h("td", {}, `${seat.inaccuracies} / ${seat.mistakes} / ${seat.blunders}`)));
  // Wider than a phone: the box scrolls, so a keyboard must be able to reach and scroll it (WCAG 2.1.1).
  const table = h("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-label": "Each player's accuracy and luck" }, h("table", { class: "list", id: "analysis-seats" },
    h("thead", {}, h("tr", {}, ["Player", "Accuracy", "Luck", "Inaccuracies / mistakes / blunders"].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, rows)));
  const worst = answer.worst.length
    ? h("ol", { id: "analysis-worst" }, answer.worst.map((d) => h("li", {}, d.words)))
    : h("p", {}, "No decision lost winning chance.");
  box.append(table, chart(answer, names), h("h4", {}, "The costliest decisions"), worst);
}

/** The evaluation of the decisions made at a replay step (``index`` into the replay's steps), in words. */
export function stepEvaluation(answer, index, names) {
  if (!answer || answer.status !== "done" || index >= answer.steps.length - 1) return null;
  const event = answer.steps[index];
  const decisions = answer.analysis.decisions.filter((d) => d.event === event);
  if (!decisions.length) return null;
  return decisions.map((d) => {
    const who = names[d.seat] ?? `seat ${d.seat}`;
    const chose = Array.isArray(d.action) ? d.action.join("+") : String(d.action);
    const best = d.best.map((b) => (Array.isArray(b) ? b.join("+") : String(b))).join(" or ");
    const verdict = d.loss > 0.0005 ? `best: ${best} (${percent(d.best_value)}); −${(100 * d.loss).toFixed(1)} points${d.label ? `, ${/^[aeiou]/.test(d.label) ? "an" : "a"} ${d.label}` : ""}` : "a best choice";
    return `${who}: ${chose} keeps ${percent(d.value)} winning chance — ${verdict}.`;
  });
}
