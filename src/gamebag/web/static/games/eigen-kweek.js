// The table of Eigen Kweek: the trading table with its four corners, the pot and the coin bag,
// every player board with its plant cards growing weed, the face-down character cards and closed
// hands (shown as hidden, never their content), your own hand, coins and character, and the bids
// revealed together.
import { h, listWords, plural, pluralWords, sameJson, seatName } from "../js/common.js";

const GROUP_TITLES = {
  choose: "Choose your character", play: "Play a character", block: "Block a character", pass: "Pass",
  bid: "Bid weed tokens (secret)", corner: "Take a corner of the trading table", sow: "Sow a plant card",
  plough: "Plough a plant card over", harvest: "Harvest", harvest_all: "Harvest", keep: "Your character card",
  hand_in: "Your character card", take: "Take a card", ria: "Ria", keun: "Keun", griet: "Griet", rob: "Rob",
  bernard: "Bernard",
};
const SEAT_KINDS = new Set(["take", "rob", "bernard", "keun"]);

function names(context) {
  return context.table.seats.map((s) => s.name);
}

/** Words for an action string such as "sow:6:3+3" or "bid:4". */
export function actionLabel(action, seatNames) {
  if (typeof action !== "string") return JSON.stringify(action);
  const [kind, ...rest] = action.split(":");
  const who = (index) => (seatNames && seatNames[Number(index)]) || `seat ${index}`;
  switch (kind) {
    case "choose": return `Keep ${rest[0]}`;
    case "pass": return "Pass";
    case "play": return `Play ${rest[0]}`;
    case "block": return `Block ${rest[0]}`;
    case "take": return `Take from ${who(rest[0])}`;
    case "ria": return `Pass cards ${rest[0]}`;
    case "keun": return `${who(rest[0])}'s ${rest[1]}-card`;
    case "griet": return `the ${rest[0]}-card`;
    case "rob": return rest.length > 1 ? `Rob ${who(rest[0])} (a ${rest[1]})` : `Rob ${who(rest[0])}`;
    case "bernard": return `Bernard on ${who(rest[0])}`;
    case "bid": return rest[0];
    case "corner": return `Corner ${rest[0]}`;
    case "sow": return `Sow the ${rest[0]}-card (pay ${rest[1] || "?"})`;
    case "plough": return `Plough the ${rest[0]}-card (pay ${rest[1] || "?"})`;
    case "harvest": return `Harvest the ${rest[0]}-card`;
    case "harvest_all": return "Harvest every full card";
    case "keep": return "Keep the card";
    case "hand_in": return "Hand the card in";
    default: return action.replaceAll(":", " ");
  }
}

const PHASES = {
  deal: "Deal characters", growth: "Growth", trade: "Trading", cultivate: "Sow, plough and harvest",
  hand_in: "Keep or hand in characters", over: "Game over",
};
const STEPS = {
  choose: "everyone picks a character in secret", window: "characters may be played now", bid: "secret bids",
  corner: "taking corners in bid order", ria_direction: "RIA passes the cards", keep: "keep your character or hand it in",
  bernard: "BERNARD picks a target", cultivate: "each player sows, ploughs or harvests", rob: "ROB picks a target",
};
const ENDED_BY = { four_sacks: "a player has four potato sacks", round_cap: "the round limit was reached (most potato sacks win)" };

/** Human words for the phase and step of the view (never the engine's codes). */
export function phaseWords(view) {
  if (view.over) return "Game over";
  const phase = PHASES[view.phase] || String(view.phase || "").replaceAll("_", " ");
  const step = view.step && view.step !== view.phase ? STEPS[view.step] || String(view.step).replaceAll("_", " ") : "";
  return step ? `${phase}: ${step}` : phase;
}

// What each character does, shortened from the rulebook (phase in which it is played: effect).
const CHARACTERS = {
  RIA: "deal: draw a card from the stack and send it left or right; everyone passes their card that way",
  KEUN: "growth: take all weed tokens from one plant card (yours or another's)",
  FLUPPE: "growth: get 2 weed tokens for each plant card on your board",
  GRIET: "growth: fill one plant card of your choice with weed tokens",
  PASTOOR: "growth: take one coin of your choice from an opponent",
  STEVEN: "trade: add 2 to your bid without paying them",
  CHANTAL: "trade: take 1 weed token from every other player's bid",
  LUCIEN: "trade: if your bid is the lowest, draw a coin blindly from the bag",
  STEFAAN: "trade: on a tied bid, you take your corner first",
  FRANK: "cultivate: pay half to sow or plough over",
  BERNARD: "cultivate: block one opponent for the whole cultivate phase",
  JOS: "cultivate: harvest all your plant cards at once",
  JULITA: "any phase: block an opponent's character card and undo its effect",
  "DEN OLLANDER": "any phase: take an opponent's unplayed character card and use it",
};

export function characterWords(card) {
  return CHARACTERS[card] ? `${card} (${CHARACTERS[card]})` : String(card);
}

const STEP_HINTS = {
  choose: "Keep one of the two characters dealt to you; the other goes back. Nobody sees which you keep until it is played.",
  window: "You may play your character now if its moment has come, or pass. Playing reveals it to everyone.",
  bid: "Secret bid of weed tokens from your hand, revealed together and paid. Highest bid picks a corner first; equal bids take nothing.",
  corner: "Take one corner's coins; corners go in bid order.",
  cultivate: "Spend coins to sow a plant card, or plough a full one over into a potato sack, or harvest weed tokens into your hand.",
  keep: "Keep your character for the next round (you will not be dealt new ones) or hand it in.",
  ria_direction: "Pass the cards to the left or to the right: everyone passes their character that way.",
};

/** A line of the game's log in words: seat numbers as names, plural forms spelled out. */
function withNames(text, seatNames) {
  const named = String(text).replace(/\bseat (\d+)(?:, seat (\d+))*/g, (whole) => {
    const seats = whole.split(", ").map((part) => seatNames[Number(part.replace("seat ", ""))] || part);
    return listWords(seats);
  });
  return pluralWords(named);
}

function plantCard(card, view) {
  const capacity = view.rules && view.rules.capacity ? view.rules.capacity[String(card.cost)] : null;
  const tokens = card.tokens || 0;
  const cells = [];
  const total = capacity || Math.max(tokens, 1);
  for (let i = 0; i < total; i += 1) {
    cells.push(h("span", { style: { width: "8px", height: "8px", borderRadius: "50%", display: "inline-block", background: i < tokens ? "#3d8b37" : "rgba(0,0,0,0.15)" } }));
  }
  return h(
    "div",
    { class: "card plant", "data-cost": card.cost, title: `${card.cost}-coin plant card: ${card.status}`, style: { opacity: card.status === "empty" ? 0.55 : 1 } },
    h("div", {}, h("strong", {}, `${card.cost}`), h("span", { class: "small" }, ` coins · ${card.status}`)),
    h("div", { style: { display: "flex", flexWrap: "wrap", gap: "2px", marginTop: "3px" } }, cells),
    capacity ? h("div", { class: "small" }, `${tokens}/${capacity} weed`) : null,
  );
}

function sacks(count) {
  const items = [];
  for (let i = 0; i < 4; i += 1) {
    items.push(h("span", { class: "sack", title: "potato sack", style: { display: "inline-block", width: "16px", height: "20px", borderRadius: "6px 6px 8px 8px", background: i < count ? "#c49a5a" : "rgba(255,255,255,0.15)", border: "1px solid rgba(0,0,0,0.35)" } }));
  }
  return h("span", { class: "row", style: { gap: "3px" } }, items, h("span", { class: "small" }, `${count} of 4 sacks`));
}

/** A board's coins: their values on your own board (you know them), else only how many. */
function coinWords(context, entry) {
  const you = context.view.you;
  if (entry.seat === context.seat && you && Array.isArray(you.coins)) {
    return you.coins.length ? `${plural(you.coins.length, "coin")}: ${you.coins.join(" + ")} = ${you.coin_value}` : "no coins";
  }
  return entry.coins ? `${plural(entry.coins, "coin")} (values hidden)` : "no coins";
}

function playerBoard(context, entry) {
  const { view, table, seat } = context;
  const p = entry.seat;
  const choices = view.choices || { waiting_for: [], chosen: [] };
  const badges = [];
  if (p === seat) badges.push(h("span", { class: "badge" }, "you"));
  if (table.seats[p].bot) badges.push(h("span", { class: "badge" }, "bot"));
  if (choices.chosen.includes(p)) badges.push(h("span", { class: "badge chosen" }, "has chosen ✓"));
  else if (choices.waiting_for.includes(p)) badges.push(h("span", { class: "badge waiting" }, "choosing…"));
  if (view.over && view.winners.includes(p)) badges.push(h("span", { class: "badge chosen" }, "winner"));
  const hidden = [];
  const finalViews = context.result && context.result.final_views;
  const revealedCard = finalViews && finalViews[p] && finalViews[p].you ? finalViews[p].you.card : null;
  if (revealedCard) hidden.push(h("span", { class: "badge revealed-card", title: characterWords(revealedCard) }, revealedCard));
  else if (entry.has_card) hidden.push(h("span", { class: "hidden-card", title: "a face-down character card" }, "?"));
  if (entry.hand_sealed) hidden.push(h("span", { class: "badge", title: "a closed hand held forward" }, "closed hand"));
  return h(
    "div",
    { class: `player${p === seat ? " me" : ""}`, id: `player-${p}` },
    h("div", { class: "name" }, seatName(table, p), badges),
    sacks(entry.sacks),
    h("div", { class: "small", style: { margin: "0.3em 0" } }, coinWords(context, entry), hidden.length ? " · " : "", hidden),
    h("div", { class: "plant-grid" }, (entry.board || []).map((card) => plantCard(card, view))),
  );
}

function tradingTable(view, context) {
  const corners = (view.corners || []).map((count, i) =>
    h("div", { class: "card", "data-corner": i + 1, style: { textAlign: "center", minWidth: "70px" } }, h("div", { class: "small" }, `corner ${i + 1}`), h("strong", {}, plural(count, "coin"))),
  );
  const trade = view.trade;
  let bids = null;
  if (trade && trade.bids && trade.bids.some((b) => b !== null)) {
    bids = h(
      "div",
      { class: "small", id: "bids", style: { marginTop: "0.4em" } },
      "Bids revealed: ",
      trade.bids.map((bid, p) =>
        h("span", { class: `badge${context.animate ? " reveal" : ""}`, style: { marginRight: "4px", animationDelay: `${0.15 * p}s` } }, `${names(context)[p]}: ${bid === null ? "—" : bid}`),
      ),
    );
  }
  return h(
    "div",
    { id: "trading-table", class: "grow" },
    h("div", { class: "caption" }, "Trading table"),
    h("div", { style: { display: "grid", gridTemplateColumns: "repeat(2, max-content)", gap: "6px" } }, corners),
    bids,
  );
}

function supplies(view) {
  return h(
    "div",
    {},
    h("div", { class: "caption" }, "Supplies"),
    h("div", { class: "small" }, `Pot: ${plural(view.pot, "weed token")}`),
    h("div", { class: "small" }, `Coin bag: ${plural(view.bag ? view.bag.coins : 0, "coin")}`),
    h("div", { class: "small" }, `Character stack: ${plural(view.stack || 0, "card")}`),
    (view.plays || []).length
      ? h("div", { class: "small", style: { marginTop: "0.4em" } }, "Played: ", (view.plays || []).map((play) => h("span", { class: "badge", style: { marginRight: "3px" } }, `${play.card}${play.blocked ? " (blocked)" : ""}`)))
      : null,
  );
}

function privateArea(view, seatNames) {
  const you = view.you;
  if (!you) return null;
  const coins = you.coins || [];
  return h(
    "div",
    { class: "panel", id: "my-hand", style: { background: "rgba(255,255,255,0.92)", color: "#23211d", marginTop: "0.7em" } },
    h("div", { class: "caption" }, "Only you see this"),
    h(
      "dl",
      { class: "kv" },
      h("dt", {}, "Weed tokens in your hand"), h("dd", {}, String(you.tokens)),
      h("dt", {}, "Your coins"), h("dd", {}, coins.length ? `${coins.join(" + ")} = ${you.coin_value}` : "none"),
      h("dt", {}, "Your character"), h("dd", {}, you.card || "none"),
      you.dealt && you.dealt.length ? [h("dt", {}, "Dealt to you"), h("dd", {}, you.dealt.join(", "))] : null,
      you.sealed_bid !== null && you.sealed_bid !== undefined ? [h("dt", {}, "Your sealed bid"), h("dd", {}, String(you.sealed_bid))] : null,
      you.notes && you.notes.length ? [h("dt", {}, "Notes"), h("dd", {}, you.notes.map((n) => withNames(n, seatNames)).join("; "))] : null,
    ),
  );
}

function controlsFor(context) {
  const { legal, act, controls } = context;
  const seatNames = names(context);
  const groups = new Map();
  for (const action of legal) {
    const kind = typeof action === "string" ? action.split(":")[0] : "other";
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(action);
  }
  for (const [kind, actions] of groups) {
    controls.appendChild(h("h3", {}, GROUP_TITLES[kind] || kind));
    // Many choices (a long list of sowing payments, say) go in a list; bids stay buttons up to 30.
    if (actions.length > (kind === "bid" ? 30 : 12)) {
      const mine = context.view.choices ? context.view.choices.mine : null;
      const select = h(
        "select",
        { "data-kind": kind, "aria-label": GROUP_TITLES[kind] || kind },
        actions.map((a) => h("option", { value: a, selected: a === mine }, actionLabel(a, seatNames))),
      );
      // The Confirm button carries the action picked in the list, so it is marked once chosen.
      const confirm = h("button", { class: "primary", "data-action": JSON.stringify(select.value), onclick: () => act(select.value) }, "Confirm");
      select.addEventListener("change", () => {
        confirm.dataset.action = JSON.stringify(select.value);
      });
      controls.appendChild(h("div", { class: "choices" }, select, confirm));
      continue;
    }
    controls.appendChild(
      h("div", { class: "choices" }, actions.map((a) => h("button", {
        "data-action": JSON.stringify(a), class: kind === "pass" ? "" : "primary", onclick: () => act(a),
        title: kind === "choose" || kind === "play" ? characterWords(a.split(":")[1]) : null,
      }, actionLabel(a, seatNames)))),
    );
  }
}

function render(context) {
  const { view, board, legal } = context;
  const chooser = view.chooser === null || view.chooser === undefined ? null : names(context)[view.chooser];
  board.appendChild(
    h(
      "div",
      { class: "info-line" },
      h("strong", {}, `Round ${view.round}`),
      h("span", { id: "phase" }, phaseWords(view)),
      chooser ? h("span", {}, `${chooser} chooses`) : null,
      view.over && view.ended_by ? h("span", {}, `The game ended because ${ENDED_BY[view.ended_by] || String(view.ended_by).replaceAll("_", " ")}.`) : null,
    ),
  );
  board.appendChild(h("div", { class: "centre" }, tradingTable(view, context), supplies(view)));
  const grid = h("div", { class: "player-grid" });
  for (const entry of view.table || []) grid.appendChild(playerBoard(context, entry));
  board.appendChild(grid);
  if (context.result || context.seat === null) {
    const mine = privateArea(view, names(context));
    if (mine) board.appendChild(mine);
  }
  if (legal.length) controlsFor(context);
}

function describe(previous, next, context) {
  const seatNames = names(context);
  const before = previous.log || [];
  const after = next.log || [];
  let fresh;
  if (previous.round === next.round && sameJson(after.slice(0, before.length), before)) {
    fresh = after.slice(before.length);
  } else {
    const finished = next.last_round_log || [];
    fresh = [...finished.slice(previous.round + 1 === next.round ? before.length : 0)];
    if (previous.round !== next.round) fresh.push({ kind: "round", text: `Round ${next.round} begins.` });
    fresh.push(...after);
  }
  const lines = fresh.map((line) => (typeof line === "string" ? withNames(line, seatNames) : line));
  if (!fresh.length) lines.push(...unlogged(previous, next, context));
  if (next.over && !previous.over) {
    const winners = (next.winners || []).map((p) => seatNames[p]);
    lines.push({ kind: "big", text: `Game over: ${listWords(winners)} ${winners.length > 1 ? "share the win" : "wins"}.` });
  }
  return lines;
}

/** The card dealt to you between two views (the one more in your dealt cards). */
function newCard(before, after) {
  const left = [...((before && before.dealt) || [])];
  for (const card of after.dealt || []) {
    const at = left.indexOf(card);
    if (at < 0) return card;
    left.splice(at, 1);
  }
  return null;
}

/**
 * The events the game's own log leaves unsaid, from what changed in the view: a coin laid face
 * down on a corner, a character card dealt (its name only to you), a character window passed.
 */
function unlogged(previous, next, context) {
  const seatNames = names(context);
  const lines = [];
  (next.corners || []).forEach((count, i) => {
    const added = count - ((previous.corners || [])[i] || 0);
    if (added > 0) lines.push(`${plural(added, "coin")} from the bag ${added > 1 ? "go" : "goes"} face down on corner ${i + 1}.`);
  });
  (next.table || []).forEach((entry, i) => {
    const before = (previous.table || [])[i] || {};
    if ((entry.dealt || 0) > (before.dealt || 0)) {
      const mine = entry.seat === context.seat && next.you ? newCard(previous.you, next.you) : null;
      lines.push(mine ? `You are dealt ${characterWords(mine)}.` : `${seatNames[entry.seat]} is dealt a character card, face down.`);
    }
  });
  if (!lines.length && next.stack < previous.stack) lines.push(`A character card is dealt from the stack (${plural(next.stack, "card")} left).`);
  if (!lines.length && (previous.step !== next.step || previous.window_step !== next.window_step || previous.phase !== next.phase)) {
    const passed = previous.step === "window" && sameJson(previous.plays, next.plays);
    lines.push(`${passed ? "No character is played. " : ""}Now: ${phaseWords(next)}.`);
  }
  return lines;
}

function label(action, view) {
  if (typeof action === "string" && action.startsWith("bid:")) return `a bid of ${action.slice(4)}`;
  return actionLabel(action, null);
}

const howToPlay = [
  "Goal: be the first with four potato sacks on your player board.",
  "Each round: everyone keeps one of two character cards dealt in secret; characters can be played at their moment for a special action.",
  "Growth: weed tokens grow on your sown plant cards.",
  "Trading: everyone bids weed tokens from their hand in secret; highest bids take the coins on the trading table's corners first.",
  "Then spend coins to sow plant cards (they grow weed tokens) or plough a full card over into a potato sack, or harvest weed tokens into your hand.",
  "Your coins' values, your hand and your character are secret: they are shown next to your buttons.",
];

function hint(context) {
  const { view, legal } = context;
  const kinds = new Set(legal.map((a) => (typeof a === "string" ? a.split(":")[0] : "")));
  if (kinds.has("choose") && view.you && view.you.dealt) {
    return `Keep one in secret, the other goes back. ${view.you.dealt.map(characterWords).join("; ")}.`;
  }
  if (kinds.has("play")) {
    const card = legal.find((a) => typeof a === "string" && a.startsWith("play:")).split(":")[1];
    return `Play now or pass (playing shows the card to all): ${characterWords(card)}.`;
  }
  if (kinds.has("block")) return "With JULITA you may block a character card just played (its effect is undone), or pass.";
  return STEP_HINTS[view.step] || `${phaseWords(view)}: choose one of the actions below.`;
}

function privateInfo(context) {
  const you = context.view.you;
  if (!you) return null;
  const coins = you.coins || [];
  return h(
    "dl",
    { class: "kv", id: "my-hand" },
    h("dt", {}, "Weed tokens in hand"), h("dd", {}, String(you.tokens)),
    h("dt", {}, "Your coins"), h("dd", {}, coins.length ? `${coins.join(" + ")} = ${you.coin_value}` : "none"),
    h("dt", {}, "Your character"), h("dd", {}, you.card ? characterWords(you.card) : "none"),
    you.sealed_bid !== null && you.sealed_bid !== undefined ? [h("dt", {}, "Your sealed bid"), h("dd", {}, String(you.sealed_bid))] : null,
    you.notes && you.notes.length
      ? [h("dt", {}, "You know"), h("dd", {}, you.notes.map((n) => withNames(n, names(context))).join("; "))]
      : null,
  );
}

function explainEnd(context, result) {
  const { view, names } = context;
  const winners = result.winners.map((p) => names[p]);
  const sacks = (view.table || []).map((entry) => entry.sacks);
  if (!winners.length) return "Nobody won.";
  const cap = view.max_rounds ? ` of ${view.max_rounds} rounds, an option of this table,` : "";
  const why = view.ended_by === "round_cap"
    ? `the round limit${cap} was reached before anyone had four sacks, and the most potato sacks win`
    : `${winners.length > 1 ? "they have" : "has"} four potato sacks`;
  return `${listWords(winners)} ${winners.length > 1 ? "share the win" : "wins"}: ${why} (sacks: ${names.map((n, p) => `${n} ${sacks[p]}`).join(", ")}).`;
}

function revealEnd(context, finalViews) {
  const names = context.names;
  return h(
    "ul",
    { class: "revealed-list" },
    finalViews.map((view, p) => {
      const you = view.you || {};
      const coins = you.coins || [];
      return h(
        "li",
        { "data-revealed": p },
        h("strong", {}, names[p]), ": ",
        `character ${you.card ? characterWords(you.card) : "none"}; `,
        `coins ${coins.length ? `${coins.join(" + ")} = ${you.coin_value}` : "none"}; `,
        plural(you.tokens ?? 0, "weed token"), " in hand.",
      );
    }),
  );
}

export default {
  render, describe, label, howToPlay, hint, privateInfo, explainEnd, revealEnd,
  // The decisions here ask about the whole table: on a phone the move panel follows the
  // board in the page instead of lying over it.
  panelInFlow: true,
  rulebookWin: () => "The rounds are repeated in this way until there is a player who has four potato sacks lying on their player board. That player has won!",
};
