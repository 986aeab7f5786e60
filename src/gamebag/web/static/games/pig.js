// The table of Pig: the die, the turn's points at risk, and each player's banked score.
import { h, seatName } from "../js/common.js";
import { catalogue, formatList, formatNumber } from "../js/i18n.js";

const { _ } = catalogue("pig");
const num = (value) => formatNumber(value);

const PIPS = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

function dieFace(value, animate) {
  const cells = [];
  for (let i = 0; i < 9; i += 1) {
    cells.push(h("span", { style: { width: "10px", height: "10px", borderRadius: "50%", background: (PIPS[value] || []).includes(i) ? "#222" : "transparent" } }));
  }
  return h(
    "span",
    {
      class: `die${animate ? " rolling" : ""}`, id: "pig-die", "data-value": value ?? "",
      style: { background: value === 1 ? "#f3c2b8" : "#fbf4e4", display: "inline-grid", gridTemplateColumns: "repeat(3, 10px)", gap: "2px", padding: "5px", width: "52px", height: "52px" },
    },
    value ? cells : h("span", { style: { color: "#222", gridColumn: "1 / -1" } }, "–"),
  );
}

function render(context) {
  const { view, table, board, controls, legal, act, seat, animate } = context;
  board.appendChild(
    h("div", { class: "info-line" }, h("strong", {}, _("Round {round}", { round: num(view.round) })), h("span", {}, _("first to {goal}", { goal: num(view.goal) })), h("span", {}, _("a 1 loses the turn's points"))),
  );
  board.appendChild(
    h(
      "div",
      { class: "centre" },
      h("div", {}, h("div", { class: "caption" }, _("Last roll")), dieFace(view.last_roll, animate && view.last_roll)),
      h("div", {}, h("div", { class: "caption" }, view.over ? _("Final scores") : _("{name}'s turn", { name: seatName(table, view.turn_seat) })), h("div", { class: "score", id: "turn-total" }, _("{points} at risk", { points: num(view.turn_total) }))),
    ),
  );
  const grid = h("div", { class: "player-grid" });
  for (let p = 0; p < view.players; p += 1) {
    const active = !view.over && p === view.turn_seat;
    grid.appendChild(
      h(
        "div",
        { class: `player${p === seat ? " me" : ""}${active ? " active" : ""}` },
        h("div", { class: "name" }, seatName(table, p), p === seat ? h("span", { class: "badge" }, _("you")) : null, view.over && view.winners.includes(p) ? h("span", { class: "badge chosen" }, _("winner")) : null),
        h("div", { class: "score" }, num(view.scores[p])),
        h("div", { class: "meter" }, h("span", { style: { width: `${Math.min(100, (100 * view.scores[p]) / view.goal)}%` } })),
      ),
    );
  }
  board.appendChild(grid);
  if (legal.length) {
    controls.appendChild(h("h3", {}, _("Roll again or hold?")));
    controls.appendChild(
      h("div", { class: "choices" }, legal.map((action) => h("button", { "data-action": JSON.stringify(action), class: action === "roll" ? "primary" : "", onclick: () => act(action) }, action === "hold" ? _("Hold (bank {points})", { points: num(view.turn_total) }) : _("Roll")))),
    );
  }
}

/** One line per event: each roll (a 1 included) and each hold; the game's end says how it ended. */
function describe(previous, next, context) {
  const names = context.names;
  const lines = [];
  const seat = previous.turn_seat;
  const who = names[seat];
  if (previous.phase === "roll" && next.last_roll) {
    // The event was a roll of the die.
    if (next.last_roll === 1) {
      const next_ = names[next.turn_seat];
      lines.push(previous.turn_total
        ? _("{name} rolls a 1 and loses the {points} at risk; {next}'s turn.", { name: who, points: num(previous.turn_total), next: next_ })
        : _("{name} rolls a 1 and loses the turn (nothing was at risk); {next}'s turn.", { name: who, next: next_ }));
    } else if (next.scores[seat] > previous.scores[seat]) {
      lines.push(_("{name} rolls {roll}: {points} this turn brings the score to {score}, reaching the goal of {goal}.", {
        name: who, roll: num(next.last_roll), points: num(next.scores[seat] - previous.scores[seat]), score: num(next.scores[seat]), goal: num(next.goal),
      }));
    } else {
      lines.push(_("{name} rolls {roll} ({points} at risk).", { name: who, roll: num(next.last_roll), points: num(next.turn_total) }));
    }
  } else if (next.turn_seat === seat && next.turn_total > previous.turn_total) {
    // Seen from further away (the replay's steps end at each decision): a roll move and its roll.
    lines.push(_("{name} rolls {roll} ({points} at risk).", { name: who, roll: num(next.last_roll), points: num(next.turn_total) }));
  } else if (seat !== null && seat !== undefined && next.turn_seat !== seat && !next.over && next.scores[seat] === previous.scores[seat]) {
    // The turn passed with nothing banked: a 1 was rolled (the replay's steps skip the roll itself).
    lines.push(previous.turn_total
      ? _("{name} rolls a 1 and loses the {points} at risk; {next}'s turn.", { name: who, points: num(previous.turn_total), next: names[next.turn_seat] })
      : _("{name} rolls a 1 and loses the turn; {next}'s turn.", { name: who, next: names[next.turn_seat] }));
  } else if (seat !== null && seat !== undefined && next.turn_seat !== seat) {
    // The event was a hold (a roll move only readies the die: its line is the roll's).
    const banked = next.scores[seat] - previous.scores[seat];
    const words = { name: who, points: num(banked), score: num(next.scores[seat]), goal: num(next.goal), next: names[next.turn_seat] };
    lines.push(next.over
      ? _("{name} holds and banks {points} (score {score}), reaching the goal of {goal}.", words)
      : _("{name} holds and banks {points} (score {score}); {next}'s turn.", words));
  }
  if (next.round !== previous.round && !next.over) lines.push({ kind: "round", text: _("Round {round}.", { round: num(next.round) }) });
  if (next.over && !previous.over) {
    lines.push({ kind: "big", text: _("Game over: {names} wins.", { names: formatList(next.winners.map((p) => names[p])) }) });
  }
  return lines;
}

function label(action) {
  if (action === "hold") return _("hold");
  return action === "roll" ? _("roll") : action;
}

/** The guide's first lines (made when shown, in the reader's language). */
function howToPlayLines() {
  return [
    _("On your turn you roll one die again and again; each roll adds to the turn's points at risk."),
    _("Rolling a 1 ends your turn and you lose the points at risk."),
    _("Hold to bank the points at risk into your score; then the other player rolls."),
  ];
}

function hint(context) {
  const { view } = context;
  return _("Roll: add to the {points} at risk, but a 1 loses them all. Hold: bank {points} for good and pass the die.", { points: num(view.turn_total) });
}

/** Your own line: the turn's points at risk are yours only on your turn (the waiting player's
 * need counts from the banked score alone, and the opponent's running total is named as theirs). */
function privateInfo(context) {
  const { view, seat, table } = context;
  const mine = !view.over && view.turn_seat === seat;
  const atRisk = mine ? view.turn_total : 0;
  const need = Math.max(0, view.goal - view.scores[seat] - atRisk);
  const words = { banked: num(view.scores[seat]), points: num(view.turn_total), need: num(need), goal: num(view.goal) };
  const own = mine
    ? _("{banked} banked, {points} at risk; {need} more to reach {goal}.", words)
    : _("{banked} banked; {need} more to reach {goal}.", words);
  const theirs = mine || view.over ? "" : " " + _("{name} has {points} at risk this turn.", { name: seatName(table, view.turn_seat), points: num(view.turn_total) });
  return h("div", { id: "my-score" }, h("strong", {}, _("You: ")), own + theirs);
}

function explainEnd(context, result) {
  const { view, names } = context;
  const winners = result.winners.map((p) => _("{name} ({score})", { name: names[p], score: num(view.scores[p]) }));
  return winners.length ? _("{names} reached {goal} first.", { names: formatList(winners), goal: num(view.goal) }) : _("Nobody reached the goal.");
}

/** The guide, with the goal and the die of this table's options. */
function howToPlay(context) {
  const { goal, die_sides: sides } = context.view;
  return [
    ...howToPlayLines(),
    _("The first whose banked score plus the points at risk reaches {goal} wins at once (no need to hold). The die has {sides} faces.", { goal: num(goal), sides: num(sides) }),
  ];
}

export default {
  render, describe, label, howToPlay, hint, privateInfo, explainEnd,
  rulebookWin: () => _("The first player whose banked score plus running total reaches the goal wins at once; there is no need to hold."),
};
