// The players' "full rules" page: /rules/{game}?players=N&options={...} shows the game's rules as a
// player reads them, with that table's own numbers (the server fills them in).
import { h, markdownNodes } from "./common.js";
import { _, ngettext } from "./i18n.js";

// The page's words, in one place (translation catalogues come next).
const WORDS = {
  title: (title) => _("{title}: the rules", { title }),
  setup: (players) => ngettext("As played at a table of {n} player.", "As played at a table of {n} players.", players),
  play: (title) => _("Play {title} online", { title }),
  get failed() { return _("The rules could not be loaded; reload the page to try again."); },
  get noGame() { return _("There is no such game here; the lobby lists every game."); },
};

const elements = {
  title: document.getElementById("rules-title"),
  setup: document.getElementById("rules-setup"),
  text: document.getElementById("rules-text"),
  play: document.getElementById("rules-play"),
};

/** The rules' own sections as the page's second-level headings (the page's title is the only h1). */
function withPageHeadings(nodes) {
  return nodes.map((node) => {
    if (!/^H[3-6]$/.test(node.tagName || "")) return node;
    const level = Math.max(2, Number(node.tagName[1]) - 2);
    return h(`h${level}`, {}, ...node.childNodes);
  });
}

async function start() {
  const gameId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean)[1] || "");
  const asked = new URLSearchParams(window.location.search);
  const query = new URLSearchParams();
  for (const name of ["players", "options"]) if (asked.get(name)) query.set(name, asked.get(name));
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/players-rules?${query}`);
    const answer = await response.json();
    if (!response.ok) {
      elements.text.replaceChildren(h("p", { class: "notice" }, response.status === 404 ? WORDS.noGame : answer.error));
      return;
    }
    document.title = `gamebag · ${WORDS.title(answer.title)}`;
    elements.title.textContent = WORDS.title(answer.title);
    elements.setup.textContent = asked.get("players") ? WORDS.setup(answer.players) : "";
    const [first, ...rest] = answer.markdown.split("\n");
    const text = first.startsWith("# ") ? rest.join("\n") : answer.markdown; // the title is the page's own
    elements.text.replaceChildren(...withPageHeadings(markdownNodes(text)));
    elements.play.href = `/?game=${encodeURIComponent(answer.game)}`;
    elements.play.textContent = WORDS.play(answer.title);
  } catch (error) {
    elements.text.textContent = WORDS.failed;
  }
}

start();
