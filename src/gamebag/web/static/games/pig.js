// The table of Pig: the die, the turn's points at risk, and each player's banked score.
import { h, listWords, seatName } from "../js/common.js";

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
    h("div", { class: "info-line" }, h("strong", {}, `Round ${view.round}`), h("span", {}, `first to ${view.goal}`), h("span", {}, "a 1 loses the turn's points")),
  );
  board.appendChild(
    h(
      "div",
      { class: "centre" },
      h("div", {}, h("div", { class: "caption" }, "Last roll"), dieFace(view.last_roll, animate && view.last_roll)),
      h("div", {}, h("div", { class: "caption" }, view.over ? "Final scores" : `${seatName(table, view.turn_seat)}'s turn`), h("div", { class: "score", id: "turn-total" }, `${view.turn_total} at risk`)),
    ),
  );
  const grid = h("div", { class: "player-grid" });
  for (let p = 0; p < view.players; p += 1) {
    const active = !view.over && p === view.turn_seat;
    grid.appendChild(
      h(
        "div",
        { class: `player${p === seat ? " me" : ""}${active ? " active" : ""}` },
        h("div", { class: "name" }, seatName(table, p), p === seat ? h("span", { class: "badge" }, "you") : null, view.over && view.winners.includes(p) ? h("span", { class: "badge chosen" }, "winner") : null),
        h("div", { class: "score" }, view.scores[p]),
        h("div", { class: "meter" }, h("span", { style: { width: `${Math.min(100, (100 * view.scores[p]) / view.goal)}%` } })),
      ),
    );
  }
  board.appendChild(grid);
  if (legal.length) {
    controls.appendChild(h("h3", {}, "Roll again or hold?"));
    controls.appendChild(
      h("div", { class: "choices" }, legal.map((action) => h("button", { "data-action": JSON.stringify(action), class: action === "roll" ? "primary" : "", onclick: () => act(action) }, action === "hold" ? `Hold (bank ${view.turn_total})` : "Roll"))),
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
      const lost = previous.turn_total ? `loses the ${previous.turn_total} at risk` : "loses the turn (nothing was at risk)";
      lines.push(`${who} rolls a 1 and ${lost}; ${names[next.turn_seat]}'s turn.`);
    } else if (next.scores[seat] > previous.scores[seat]) {
      lines.push(`${who} rolls ${next.last_roll}: ${next.scores[seat] - previous.scores[seat]} this turn brings the score to ${next.scores[seat]}, reaching the goal of ${next.goal}.`);
    } else {
      lines.push(`${who} rolls ${next.last_roll} (${next.turn_total} at risk).`);
    }
  } else if (next.turn_seat === seat && next.turn_total > previous.turn_total) {
    // Seen from further away (the replay's steps end at each decision): a roll move and its roll.
    lines.push(`${who} rolls ${next.last_roll} (${next.turn_total} at risk).`);
  } else if (seat !== null && seat !== undefined && next.turn_seat !== seat && !next.over && next.scores[seat] === previous.scores[seat]) {
    // The turn passed with nothing banked: a 1 was rolled (the replay's steps skip the roll itself).
    lines.push(`${who} rolls a 1 and loses ${previous.turn_total ? `the ${previous.turn_total} at risk` : "the turn"}; ${names[next.turn_seat]}'s turn.`);
  } else if (seat !== null && seat !== undefined && next.turn_seat !== seat) {
    // The event was a hold (a roll move only readies the die: its line is the roll's).
    const banked = next.scores[seat] - previous.scores[seat];
    const reached = next.over ? `, reaching the goal of ${next.goal}` : `; ${names[next.turn_seat]}'s turn`;
    lines.push(`${who} holds and banks ${banked} (score ${next.scores[seat]})${reached}.`);
  }
  if (next.round !== previous.round && !next.over) lines.push({ kind: "round", text: `Round ${next.round}.` });
  if (next.over && !previous.over) {
    lines.push({ kind: "big", text: `Game over: ${listWords(next.winners.map((p) => names[p]))} wins.` });
  }
  return lines;
}

function label(action) {
  return action;
}

const HOW_TO_PLAY = [
  "On your turn you roll one die again and again; each roll adds to the turn's points at risk.",
  "Rolling a 1 ends your turn and you lose the points at risk.",
  "Hold to bank the points at risk into your score; then the other player rolls.",
  "The first whose banked score plus the points at risk reaches the goal wins at once (no need to hold).",
];

function hint(context) {
  const { view } = context;
  return `Roll: add to the ${view.turn_total} at risk, but a 1 loses them all. Hold: bank ${view.turn_total} for good and pass the die.`;
}

/** Your own line: the turn's points at risk are yours only on your turn (the waiting player's
 * need counts from the banked score alone, and the opponent's running total is named as theirs). */
function privateInfo(context) {
  const { view, seat, table } = context;
  const mine = !view.over && view.turn_seat === seat;
  const atRisk = mine ? view.turn_total : 0;
  const need = Math.max(0, view.goal - view.scores[seat] - atRisk);
  const own = mine
    ? `${view.scores[seat]} banked, ${view.turn_total} at risk; ${need} more to reach ${view.goal}.`
    : `${view.scores[seat]} banked; ${need} more to reach ${view.goal}.`;
  const theirs = mine || view.over ? "" : ` ${seatName(table, view.turn_seat)} has ${view.turn_total} at risk this turn.`;
  return h("div", { id: "my-score" }, h("strong", {}, "You: "), own + theirs);
}

function explainEnd(context, result) {
  const { view, names } = context;
  const winners = result.winners.map((p) => `${names[p]} (${view.scores[p]})`);
  return winners.length ? `${listWords(winners)} reached ${view.goal} first.` : "Nobody reached the goal.";
}

/** The guide, with the goal and the die of this table's options. */
function howToPlay(context) {
  const { goal, die_sides: sides } = context.view;
  return [
    ...HOW_TO_PLAY.slice(0, -1),
    `The first whose banked score plus the points at risk reaches ${goal} wins at once (no need to hold). The die has ${sides} faces.`,
  ];
}

export default {
  render, describe, label, howToPlay, hint, privateInfo, explainEnd,
  rulebookWin: () => "The first player whose banked score plus running total reaches the goal wins at once; there is no need to hold.",
};
