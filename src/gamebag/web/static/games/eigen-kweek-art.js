// Eigen Kweek's pictures, drawn here as inline SVG (no image files, nothing fetched): an emblem
// for each of the fourteen characters, framed in the colour of the phase in which it is played,
// and the plant cards as a player meets them: an unsown bed, a plant growing with its weed
// tokens, a full plant ready to plough over, and a potato sack. A picture is recognised before
// its words are read; every picture also carries its words as a title for screen readers.
import { svg } from "../js/common.js";
import { catalogue } from "../js/i18n.js";

const { _ } = catalogue("eigen_kweek");

// The phase each card is played in (null: any phase), and that phase's frame colour.
export const CARD_PHASES = {
  RIA: "deal", KEUN: "growth", FLUPPE: "growth", GRIET: "growth", PASTOOR: "growth",
  STEVEN: "trade", CHANTAL: "trade", LUCIEN: "trade", STEFAAN: "trade",
  FRANK: "cultivate", BERNARD: "cultivate", JOS: "cultivate", JULITA: null, "DEN OLLANDER": null,
};
const PHASE_COLOURS = { deal: "#7b5ea7", growth: "#3d8b37", trade: "#c08a1e", cultivate: "#8a5a2b", any: "#3f6e8c" };
// The phase's word on the card's foot (short: it is drawn 7 units high on a 48-unit card).
const PHASE_LABELS = {
  deal: () => _("DEAL"), growth: () => _("GROWTH"), trade: () => _("TRADE"), cultivate: () => _("CULTIVATE"), any: () => _("ALL"),
};
const PHASE_TITLES = {
  deal: (card) => _("{card}, played in the deal phase", { card }),
  growth: (card) => _("{card}, played in the growth phase", { card }),
  trade: (card) => _("{card}, played in the trade phase", { card }),
  cultivate: (card) => _("{card}, played in the cultivate phase", { card }),
  any: (card) => _("{card}, played in any phase", { card }),
};

const LEAF = "#4f9d3a";
const WEED = "#2f6f2a";
const COIN = "#e2b93b";
const SACK = "#c49a5a";

// Each character: hair or hat colour, a hat shape, and the emblem of what the card does.
const LOOKS = {
  RIA: { hair: "#6b3b1f", hat: "bun", item: "swap" },
  KEUN: { hair: "#2b2b2b", hat: "cap", item: "grab" },
  FLUPPE: { hair: "#d8a23a", hat: "curls", item: "plus2" },
  GRIET: { hair: "#a0522d", hat: "scarf", item: "can" },
  PASTOOR: { hair: "#1f1f1f", hat: "collar", item: "coin" },
  STEVEN: { hair: "#5a3a1a", hat: "none", item: "bidplus" },
  CHANTAL: { hair: "#e0c060", hat: "long", item: "take" },
  LUCIEN: { hair: "#777777", hat: "beret", item: "bag" },
  STEFAAN: { hair: "#3a2a1a", hat: "crown", item: "first" },
  FRANK: { hair: "#8b4513", hat: "cap", item: "half" },
  BERNARD: { hair: "#444444", hat: "helmet", item: "stop" },
  JOS: { hair: "#b5651d", hat: "straw", item: "basket" },
  JULITA: { hair: "#2b1a10", hat: "long", item: "shield" },
  "DEN OLLANDER": { hair: "#f0d060", hat: "dutch", item: "tulip" },
};

function title(text) {
  const element = svg("title", {});
  element.textContent = text;
  return element;
}

function label(x, y, text, size, fill) {
  const element = svg("text", { x, y, "font-size": size, "font-family": "sans-serif", "font-weight": "bold", "text-anchor": "middle", fill });
  element.textContent = text;
  return element;
}

function hatShapes(hat, colour) {
  switch (hat) {
    case "bun": return [svg("circle", { cx: 24, cy: 9, r: 4, fill: colour }), svg("path", { d: "M15 19 Q24 8 33 19 Z", fill: colour })];
    case "cap": return [svg("path", { d: "M15 18 Q24 8 33 18 Z", fill: colour }), svg("rect", { x: 27, y: 16, width: 10, height: 3, rx: 1, fill: colour })];
    case "curls": return [12, 18, 24, 30, 36].map((cx) => svg("circle", { cx, cy: 15, r: 4, fill: colour }));
    case "scarf": return [svg("path", { d: "M14 20 Q24 4 34 20 L32 22 Q24 12 16 22 Z", fill: "#c0392b" })];
    case "collar": return [svg("path", { d: "M16 17 Q24 9 32 17 Z", fill: colour }), svg("rect", { x: 21, y: 30, width: 6, height: 3, fill: "#ffffff" })];
    case "long": return [svg("path", { d: "M14 30 L14 18 Q24 6 34 18 L34 30 L31 30 L31 20 L17 20 L17 30 Z", fill: colour })];
    case "beret": return [svg("ellipse", { cx: 24, cy: 14, rx: 11, ry: 4, fill: "#2c3e50" }), svg("circle", { cx: 24, cy: 10, r: 1.5, fill: "#2c3e50" })];
    case "crown": return [svg("path", { d: "M15 16 L17 8 L21 13 L24 6 L27 13 L31 8 L33 16 Z", fill: COIN, stroke: "#8a6d00", "stroke-width": 0.8 })];
    case "helmet": return [svg("path", { d: "M14 19 Q24 4 34 19 Z", fill: "#e67e22" }), svg("rect", { x: 12, y: 18, width: 24, height: 2, fill: "#e67e22" })];
    case "straw": return [svg("ellipse", { cx: 24, cy: 15, rx: 14, ry: 3, fill: "#e8c872" }), svg("path", { d: "M18 15 Q24 5 30 15 Z", fill: "#e8c872" })];
    case "dutch": return [svg("path", { d: "M13 20 Q24 2 35 20 Q24 14 13 20 Z", fill: "#ffffff", stroke: "#9aa", "stroke-width": 0.8 })];
    default: return [svg("path", { d: "M16 17 Q24 10 32 17 Z", fill: colour })];
  }
}

function itemShapes(item) {
  switch (item) {
    case "swap": return [svg("rect", { x: 34, y: 28, width: 9, height: 12, rx: 1, fill: "#ffffff", stroke: "#555" }), svg("path", { d: "M3 34 L10 30 L10 38 Z", fill: "#ffffff" })];
    case "grab": return [svg("circle", { cx: 38, cy: 32, r: 3, fill: WEED }), svg("circle", { cx: 42, cy: 37, r: 3, fill: WEED }), svg("path", { d: "M30 40 Q34 30 40 28", stroke: "#f1c9a5", "stroke-width": 3, fill: "none" })];
    case "plus2": return [label(40, 38, "+2", 10, "#ffffff"), svg("circle", { cx: 8, cy: 34, r: 3, fill: WEED })];
    case "can": return [svg("rect", { x: 33, y: 30, width: 9, height: 8, rx: 1, fill: "#5d8aa8" }), svg("path", { d: "M42 32 L46 28", stroke: "#5d8aa8", "stroke-width": 2 })];
    case "coin": return [svg("circle", { cx: 39, cy: 34, r: 5, fill: COIN, stroke: "#8a6d00" })];
    case "bidplus": return [svg("path", { d: "M32 40 Q38 28 44 40 Z", fill: "#f1c9a5" }), label(38, 27, "+2", 9, "#ffffff")];
    case "take": return [svg("circle", { cx: 6, cy: 34, r: 3, fill: WEED }), svg("path", { d: "M9 34 L16 34", stroke: "#ffffff", "stroke-width": 2 })];
    case "bag": return [svg("path", { d: "M33 40 Q32 30 38 29 Q44 30 43 40 Z", fill: "#7f6a4f" }), svg("circle", { cx: 38, cy: 27, r: 2.5, fill: COIN })];
    case "first": return [label(40, 38, "1st", 9, "#ffffff")];
    case "half": return [label(40, 39, "½", 13, "#ffffff")];
    case "stop": return [svg("circle", { cx: 39, cy: 34, r: 6, fill: "#c0392b" }), svg("rect", { x: 35, y: 33, width: 8, height: 2, fill: "#ffffff" })];
    case "basket": return [svg("path", { d: "M32 32 L44 32 L42 40 L34 40 Z", fill: "#a0703a" }), svg("circle", { cx: 36, cy: 31, r: 2, fill: WEED }), svg("circle", { cx: 40, cy: 31, r: 2, fill: WEED })];
    case "shield": return [svg("path", { d: "M33 28 L45 28 L45 34 Q45 40 39 42 Q33 40 33 34 Z", fill: "#ecf0f1", stroke: "#34495e" }), svg("path", { d: "M36 31 L42 38 M42 31 L36 38", stroke: "#c0392b", "stroke-width": 1.6 })];
    case "tulip": return [svg("path", { d: "M39 42 L39 33", stroke: LEAF, "stroke-width": 1.5 }), svg("path", { d: "M35 30 L37 34 L39 31 L41 34 L43 30 Q43 36 39 36 Q35 36 35 30 Z", fill: "#e74c3c" })];
    default: return [];
  }
}

/** A character's portrait: a face with its hat and the emblem of its action, framed in its phase's colour. */
export function characterArt(card, size = 48) {
  const looks = LOOKS[card];
  const phase = CARD_PHASES[card] === undefined ? "any" : CARD_PHASES[card] || "any";
  const frame = PHASE_COLOURS[phase];
  const picture = svg(
    "svg",
    { viewBox: "0 0 48 56", width: size, height: Math.round((size * 56) / 48), class: "kweek-art character-art", "data-card": card, role: "img" },
    title(PHASE_TITLES[phase](card)),
    svg("rect", { x: 0.5, y: 0.5, width: 47, height: 55, rx: 5, fill: frame, stroke: "#23211d" }),
    // Long hair is drawn behind the face, every other hat over it.
    ...(looks && looks.hat === "long" ? hatShapes(looks.hat, looks.hair) : []),
    svg("circle", { cx: 24, cy: 24, r: 9, fill: "#f1c9a5" }),
    svg("circle", { cx: 21, cy: 23, r: 1.1, fill: "#23211d" }),
    svg("circle", { cx: 27, cy: 23, r: 1.1, fill: "#23211d" }),
    svg("path", { d: "M21 28 Q24 30 27 28", stroke: "#23211d", "stroke-width": 1, fill: "none" }),
    svg("path", { d: "M12 44 Q24 32 36 44 Z", fill: "rgba(255,255,255,0.85)" }),
    ...(looks && looks.hat !== "long" ? hatShapes(looks.hat, looks.hair) : []),
    ...(looks ? itemShapes(looks.item) : []),
    svg("rect", { x: 0.5, y: 45, width: 47, height: 10.5, rx: 0, fill: "rgba(0,0,0,0.35)" }),
    label(24, 53, PHASE_LABELS[phase](), 7, "#ffffff"),
  );
  return picture;
}

/** A plant card's picture by its state: unsown, growing (its weed tokens drawn), full, or a sack. */
export function plantArt(cost, status, tokens, capacity) {
  const kind = status === "sack" ? "sack" : status === "empty" ? "unsown" : capacity && tokens >= capacity ? "full" : "growing";
  const words = {
    unsown: () => _("{cost}-coin plant card, not sown yet", { cost }),
    growing: () => _("{cost}-coin plant card growing: {tokens} of {capacity} weed tokens", { cost, tokens, capacity }),
    full: () => _("{cost}-coin plant card, full: {tokens} weed tokens", { cost, tokens }),
    sack: () => _("{cost}-coin plant card ploughed over: a potato sack", { cost }),
  }[kind]();
  const parts = [title(words)];
  if (kind === "sack") {
    parts.push(
      svg("path", { d: "M14 16 Q12 10 18 9 L30 9 Q36 10 34 16 Q42 30 38 40 Q24 46 10 40 Q6 30 14 16 Z", fill: SACK, stroke: "#6b4f2a", "stroke-width": 1.2 }),
      svg("path", { d: "M15 15 Q24 19 33 15", stroke: "#6b4f2a", "stroke-width": 1.5, fill: "none" }),
      svg("ellipse", { cx: 20, cy: 30, rx: 3, ry: 2, fill: "#9c7440" }),
      svg("ellipse", { cx: 28, cy: 34, rx: 3, ry: 2, fill: "#9c7440" }),
    );
  } else {
    parts.push(svg("rect", { x: 4, y: 36, width: 40, height: 8, rx: 2, fill: kind === "unsown" ? "#b8926a" : "#8a5a2b" }));
    if (kind === "unsown") {
      parts.push(svg("path", { d: "M10 39 L38 39 M10 42 L38 42", stroke: "#8a6a4a", "stroke-dasharray": "2 2" }));
    } else {
      const share = capacity ? Math.min(1, tokens / capacity) : 0;
      const height = 8 + Math.round(22 * share);
      parts.push(svg("path", { d: `M24 36 L24 ${36 - height}`, stroke: LEAF, "stroke-width": 2 }));
      parts.push(svg("path", { d: `M24 ${36 - height / 2} Q16 ${30 - height / 2} 13 ${36 - height / 2} Q18 ${38 - height / 2} 24 ${36 - height / 2} Z`, fill: LEAF }));
      parts.push(svg("path", { d: `M24 ${38 - height / 1.5} Q32 ${32 - height / 1.5} 35 ${38 - height / 1.5} Q30 ${40 - height / 1.5} 24 ${38 - height / 1.5} Z`, fill: LEAF }));
      if (kind === "full") parts.push(svg("circle", { cx: 24, cy: 36 - height, r: 3.5, fill: "#f4d03f", stroke: "#b7950b" }));
      for (let i = 0; i < tokens; i += 1) {
        parts.push(svg("circle", { cx: 7 + (i % 9) * 4.2, cy: 40 + Math.floor(i / 9) * 3 - 1, r: 1.6, fill: "#bdf5a8", stroke: WEED, "stroke-width": 0.6, class: "weed-token" }));
      }
    }
  }
  return svg("svg", { viewBox: "0 0 48 48", width: 40, height: 40, class: `kweek-art plant-art ${kind}`, "data-plant": kind, role: "img" }, ...parts);
}
