// Eigen Kweek in the players' words: actions, phases and steps, the game's log lines, the
// coins a sow or plough-over costs and which coins pay it (the cheapest set, for there is no
// change), and the "How to play" guide with the numbers of the table's own options.
import { plural } from "../js/common.js";

const PHASES = {
  deal: "Deal characters", growth: "Growth", trade: "Trading", cultivate: "Sow, plough and harvest",
  hand_in: "Keep or hand in characters", over: "Game over", setup: "Setting up",
};
const STEPS = {
  choose: "everyone picks a character in secret", window: "characters may be played now", bid: "secret bids",
  corner: "taking corners in bid order", ria_choice: "RIA may draw a card from the stack",
  ria_draw: "RIA draws a card", ria_direction: "RIA passes the cards", keep: "keep your character or hand it in",
  keun: "KEUN picks a plant card", griet: "GRIET fills a plant card", rob: "PASTOOR picks an opponent",
  rob_draw: "PASTOOR takes a coin", lucien_draw: "LUCIEN draws a coin from the bag", bernard: "BERNARD picks a target",
  cultivate: "each player sows, ploughs or harvests", refill: "coins go onto the trading table",
  deal: "character cards are dealt",
};

/** Human words for the phase and step of the view (never the engine's codes). */
export function phaseWords(view) {
  if (view.over) return "Game over";
  const phase = PHASES[view.phase] || "Playing";
  const step = view.step && view.step !== view.phase ? STEPS[view.step] || "" : "";
  return step ? `${phase}: ${step}` : phase;
}

/** The coins of a payment such as "3+2+1", and what they add up to. */
export function paymentValue(payment) {
  return String(payment || "").split("+").filter(Boolean).reduce((sum, coin) => sum + Number(coin), 0);
}

/** What sowing or ploughing over the ``cost`` card costs this seat now (its FRANK halves it, rounding up). */
export function priceOf(view, kind, cost) {
  const rules = view.rules || {};
  const table = kind === "sow" ? rules.sow_cost : rules.plough_cost;
  const full = table && table[String(cost)] !== undefined ? Number(table[String(cost)]) : Number(cost);
  const frank = (view.plays || []).some((p) => p.card === "FRANK" && !p.blocked && p.seat === view.seat);
  return frank ? Math.ceil(full / 2) : full;
}

/** Sow and plough-over actions grouped by card: the price, the cheapest coins, the other ways to pay. */
export function paymentGroups(view, actions) {
  const groups = new Map();
  for (const action of actions) {
    const [kind, cost, payment] = action.split(":");
    const key = `${kind}:${cost}`;
    if (!groups.has(key)) groups.set(key, { kind, cost: Number(cost), options: [] });
    groups.get(key).options.push({ action, payment, value: paymentValue(payment), coins: payment.split("+").length });
  }
  for (const group of groups.values()) {
    group.options.sort((a, b) => a.value - b.value || a.coins - b.coins);
    group.price = priceOf(view, group.kind, group.cost);
  }
  return [...groups.values()];
}

/** "pay 3+3" or "pay 5+2 = 7 (no change given)". */
export function paymentWords(option, price) {
  const coins = option.payment.split("+");
  const sum = coins.length > 1 ? ` = ${option.value}` : "";
  return `pay ${option.payment}${sum}${option.value > price ? ` (${option.value - price} over: no change given)` : ""}`;
}

/** Words for an action string such as "sow:6:3+3" or "bid:4". */
export function actionLabel(action, seatNames, view) {
  if (typeof action !== "string") return JSON.stringify(action);
  const [kind, ...rest] = action.split(":");
  const who = (index) => (seatNames && seatNames[Number(index)]) || `player ${Number(index) + 1}`;
  const price = (k) => (view ? `${priceOf(view, k, rest[0])} coins, ` : "");
  switch (kind) {
    case "choose": return `Keep ${rest[0]}`;
    case "pass": return "Pass";
    case "play": return `Play ${rest[0]}`;
    case "block": return `Block ${rest[0]} with JULITA`;
    case "take": return `Take ${who(rest[0])}'s card with DEN OLLANDER`;
    case "ria": return {
      draw: "Draw a card from the stack", skip: "Draw no card",
      left: "Everyone passes cards to the left", right: "Everyone passes cards to the right",
    }[rest[0]] || "RIA";
    case "keun": return `Take the weed on ${who(rest[0])}'s ${rest[1]}-card`;
    case "griet": return `Fill your ${rest[0]}-card`;
    case "rob": return rest.length > 1 ? `Take a ${rest[1]}-coin from ${who(rest[0])}` : `Take a coin from ${who(rest[0])}`;
    case "bernard": return `Block ${who(rest[0])} this cultivate phase`;
    case "bid": return rest[0];
    case "corner": return `Corner ${rest[0]}`;
    case "sow": return `Sow the ${rest[0]}-card (${price("sow")}pay ${rest[1] || "?"})`;
    case "plough": return `Plough the ${rest[0]}-card into a sack (${price("plough")}pay ${rest[1] || "?"})`;
    case "harvest": return `Harvest the ${rest[0]}-card`;
    case "harvest_all": return "Harvest all your plant cards (JOS)";
    case "keep": return "Keep the card for next round";
    case "hand_in": return "Hand the card in";
    default: return "a move";
  }
}

const PHASE_LINES = {
  "Deal Characters": "Deal characters: everyone is dealt character cards.",
  Growth: "Growth: the plants grow.",
  Trade: "Trading: everyone bids weed tokens for the coins on the trading table.",
  Cultivate: "Sow, plough and harvest.",
  "Hand In Characters": "Keep or hand in characters.",
};

// The game's own log lines (with "seat N" still in them) rewritten where they speak engine.
const LOG_REWRITES = [
  [/^phase: (.+)$/, (m, title) => PHASE_LINES[title] || `${title}.`],
  [/^(seat \d+) takes the (.+) of corner (\d) and hands in its bid$/, (m, who, coins, corner) => `${who} takes the ${coins} of corner ${corner} and pays the bid into the pot`],
  [/^everyone holds a closed hand forward$/, () => "Everyone holds out a closed hand with a secret bid"],
  [/^all players open their hands: (.+)$/, (m, rest) => `The hands open: ${rest.replace(/ bid (\d+) \(counts (\d+)\)/g, " bid $1, which counts as $2")}`],
  [/^the order of choosing corners: (.+)$/, (m, rest) => `Corners are taken in this order: ${rest}`],
  [/^(.+) bid the same \((\d+)\): no corner, and the bid goes back to the collection$/, (m, who, count) => `${who} tie at ${count}: no corner for them, and they keep their weed tokens`],
  [/^four coins are taken from the coin bag and placed on corners 1 to 4 of the trading table$/, () => "Four coins from the bag go face down on corners 1, 2, 3 and 4 of the trading table"],
  [/^everyone has chosen a character card$/, () => "Everyone has picked a character"],
  [/^(seat \d+) kept a character card and is dealt none$/, (m, who) => `${who} kept a character card and is dealt none`],
];

/** One log line of the game in players' words (seat numbers are named afterwards). */
export function logWords(line) {
  for (const [pattern, rewrite] of LOG_REWRITES) {
    const match = String(line).match(pattern);
    if (match) return rewrite(...match);
  }
  return String(line);
}

// Each character's text, from the rulebook (games/eigen_kweek/components.py CARD_TEXT), with its phase.
export const RULEBOOK_CARDS = [
  ["RIA", "Deal characters", "Play after all players have chosen a character card. The stack is shuffled and you may blindly take a card; you look at it and pass it to the player on your left or right. All players pass their character card the same way."],
  ["KEUN", "Growth", "Take all weed tokens from one plant card, your own or an opponent's."],
  ["FLUPPE", "Growth", "Receive two weed tokens for each plant card on your player board."],
  ["GRIET", "Growth", "Completely fill one plant card of your choice with weed tokens."],
  ["PASTOOR", "Growth", "Take one coin of your choice from an opponent."],
  ["STEVEN", "Trade", "Add 2 weed tokens to your bid (you do not physically add them)."],
  ["CHANTAL", "Trade", "Receive 1 weed token from the bid of every other player; only after this is the bid counted. You do not add them to your own bid."],
  ["LUCIEN", "Trade", "If you bid the lowest, blindly take one coin from the coin bag. A tie, or no bid, is not the lowest bid."],
  ["STEFAAN", "Trade", "On a tie you take coins from the trading table first; the others with the same bid win nothing and keep their bid."],
  ["FRANK", "Cultivate", "Pay only half the price (rounded up) when sowing or ploughing over."],
  ["BERNARD", "Cultivate", "Block an opponent for the entire cultivate phase: they can do nothing in it."],
  ["JOS", "Cultivate", "At the harvest, empty all your plant cards at the same time."],
  ["JULITA", "Any phase", "Block an opponent's character card and undo its effect, for everyone."],
  ["DEN OLLANDER", "Any phase", "Take an opponent's character card that has not been played yet, and use it."],
];

/** The "How to play" guide, with the numbers of this table's options. */
export function howToPlay(context) {
  const rules = (context && context.view && context.view.rules) || {};
  const costs = Object.keys(rules.capacity || { 2: 0, 4: 0, 6: 0, 8: 0 });
  const coins = Object.entries(rules.coins || {}).filter(([, n]) => n > 0).map(([value, n]) => `${n} worth ${value}`);
  const perCard = (table, noun) => costs.map((c) => {
    const n = table && table[c] !== undefined ? Number(table[c]) : "?";
    return `${c}-card ${noun && n !== "?" ? plural(n, noun) : n}`;
  }).join(", ");
  return [
    "Goal: be the first with four potato sacks on your player board.",
    `Coins: ${coins.length ? coins.join(", ") : "35 in the bag"}. Their values are secret; coins paid give no change (pay 5 for a 4 and the 1 is lost).`,
    `Plant cards cost what they show to sow: ${costs.map((c) => `${c} coins`).join(", ")}. Each round weed tokens grow on them (${perCard(rules.growth, null)}) until a card is full (${perCard(rules.capacity, null)} tokens).`,
    `Plough a card over into a potato sack for ${perCard(rules.plough_cost, "coin")}; you take its weed tokens.`,
    "1. Deal characters: you are dealt two character cards and keep one in secret.",
    "2. Growth: weed tokens from the pot grow on every sown plant card.",
    "3. Trading: bid weed tokens in a closed hand; bids open together. The highest count picks a corner first and pays its bid into the pot; equal counts take nothing and keep their tokens.",
    "4. Sow, plough and harvest: one action each: sow, plough over, harvest one card's weed tokens, or pass.",
    "5. Hand in characters: keep your unplayed character for next round (you are dealt none then) or hand it in.",
    ...RULEBOOK_CARDS.map(([card, phase, text]) => `${card} (${phase}): ${text}`),
    `The game ends when someone has four sacks, or after ${plural((context && context.view && context.view.max_rounds) || 60, "round")} (most sacks win).`,
  ];
}
