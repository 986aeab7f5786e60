// The analysis of a finished game (docs/analysis.md): a first line in plain words, each seat's
// accuracy and luck (in % of win chance, each unit said in one line), a chart of each seat's win
// chance through the game, the worst decisions in words, each replay step's evaluation, and the
// method behind a "How is this computed?" fold. The server runs the analysis in its worker pool and
// writes the sentences about the game (web/tables/analysis.py); these functions poll
// /api/tables/{id}/analysis, quickly at first, since most analyses take a second or two.
import { h, svg } from "./common.js";
import { _, formatNumber, formatPercent } from "./i18n.js";

const QUICK_POLL_MS = 250;
const QUICK_POLLS = 24; // the first six seconds
const POLL_MS = 1000;
// The page's own words, one whole sentence or label each.
const TEXT = {
  get heading() { return _("Analysis"); },
  get analysing() { return _("Analysing the game…"); },
  get progress() { return _("Analysing… {done} of {total} events ({seconds} s)"); },
  get failed() { return _("The analysis could not finish: {error}"); },
  get unavailable() { return _("The analysis is not available."); },
  get took() { return _("Worked out in {seconds} s."); },
  get how() { return _("How is this computed?"); },
  get player() { return _("Player"); },
  get accuracy() { return _("Accuracy"); },
  get luck() { return _("Luck (win chance)"); },
  get labels() { return _("Inaccuracies / mistakes / blunders"); },
  get costliest() { return _("The costliest decisions"); },
  get none() { return _("No decision lost win chance."); },
  get chart() { return _("Each player's win chance through the game"); },
  get figures() { return _("Each player's accuracy and luck"); },
  get seat() { return _("seat {seat}"); },
};

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (match, key) => String(values[key] ?? match));
}
const COLOURS = ["#1b6ac9", "#c2410c", "#15803d", "#7e22ce", "#b91c1c", "#0e7490", "#a16207", "#4b5563"];

/** Poll the table's analysis until it is done or failed; ``onProgress(answer)`` hears each answer. */
export async function fetchAnalysis(tableId, onProgress) {
  let polls = 0;
  for (;;) {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/analysis`);
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error || TEXT.unavailable);
    if (onProgress) onProgress(answer);
    if (answer.status !== "running") return answer;
    polls += 1;
    await new Promise((resolve) => window.setTimeout(resolve, polls <= QUICK_POLLS ? QUICK_POLL_MS : POLL_MS));
  }
}

function percent(value) {
  return formatPercent(Math.round(Math.max(0, 100 * value)) / 100); // never "-0%" from a rounding below zero
}

function progressText(answer) {
  return fill(TEXT.progress, answer);
}

/** A line chart of each seat's winning chance after each of its decisions. */
function chart(answer, names) {
  const width = 560;
  const height = 180;
  const last = Math.max(1, answer.steps[answer.steps.length - 1]);
  const x = (event) => 30 + (event / last) * (width - 40);
  const y = (value) => 10 + (1 - value) * (height - 30);
  const picture = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "analysis-chart", role: "img",
    "aria-label": TEXT.chart });
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
    h("span", { style: { color: COLOURS[Number(seat) % COLOURS.length], marginRight: "1em" } }, `■ ${names[Number(seat)] ?? fill(TEXT.seat, { seat })}`)));
  return h("div", {}, picture, legend);
}

function signedPercent(value) {
  const points = 100 * value;
  const digits = Math.abs(points) < 1 ? 1 : 0;
  return `${points >= 0 ? "+" : "−"}${formatPercent(Number((Math.abs(points) / 100).toFixed(digits + 2)), digits)}`;
}

function luckText(seat) {
  const luck = signedPercent(seat.luck);
  if (!seat.luck_interval) return luck;
  const [low, high] = seat.luck_interval;
  return _("{luck} ({low} to {high})", { luck, low: signedPercent(low), high: signedPercent(high) });
}

/** The analysis panel of the end screen, filled in as the analysis runs. */
export async function showAnalysis(box, tableId, names) {
  const status = h("p", { class: "small", role: "status" }, TEXT.analysing);
  box.replaceChildren(h("h3", {}, TEXT.heading), status);
  let answer;
  try {
    answer = await fetchAnalysis(tableId, (a) => { status.textContent = progressText(a); });
  } catch (error) {
    status.textContent = String(error.message || error);
    return;
  }
  if (answer.status !== "done") {
    status.textContent = fill(TEXT.failed, answer);
    return;
  }
  const analysis = answer.analysis;
  // The first line is the game's story in plain words; the method waits behind the fold.
  status.id = "analysis-headline";
  status.className = "analysis-headline";
  status.textContent = answer.headline;
  const rows = analysis.seats.map((seat) => h("tr", {},
    h("th", { scope: "row" }, names[seat.seat] ?? fill(TEXT.seat, { seat: seat.seat })),
    h("td", {}, seat.accuracy === null ? "–" : formatPercent(seat.accuracy / 100, 1)),
    h("td", {}, luckText(seat)),
    h("td", {}, [seat.inaccuracies, seat.mistakes, seat.blunders].map((n) => formatNumber(n)).join(" / "))));
  // A narrow screen scrolls the table sideways: the region takes the keyboard's focus to do so.
  const table = h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": TEXT.figures }, h("table", { class: "list", id: "analysis-seats" },
    h("thead", {}, h("tr", {}, [TEXT.player, TEXT.accuracy, TEXT.luck, TEXT.labels].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, rows)));
  const units = h("p", { class: "small muted", id: "analysis-units" }, answer.accuracy_unit, " ", answer.luck_unit);
  const worst = answer.worst.length
    ? h("ol", { id: "analysis-worst" }, answer.worst.map((d) => h("li", {}, d.words)))
    : h("p", {}, TEXT.none);
  const how = h("details", { id: "analysis-how", class: "small" }, h("summary", {}, TEXT.how),
    ...answer.how.map((line) => h("p", {}, line)), h("p", {}, fill(TEXT.took, answer)));
  box.append(table, units, chart(answer, names), h("h4", {}, TEXT.costliest), worst, how);
}

/** The evaluation of the decisions made at a replay step (``index`` into the replay's steps), in words. */
export function stepEvaluation(answer, index) {
  if (!answer || answer.status !== "done" || index >= answer.steps.length - 1) return null;
  const lines = (answer.evaluations || {})[String(answer.steps[index])];
  return lines && lines.length ? lines : null;
}
