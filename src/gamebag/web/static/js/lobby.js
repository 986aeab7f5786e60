// The lobby: pick a game, set players, options, bots and timer, open a table, share invite links.
import { changeHeaders, claimInvite, h, keepSeat, keptSeats, listWords, session, storedSeat } from "./common.js";
import { _, formatDate, ngettext } from "./i18n.js";
import { addressNote, copyButton, hostCall, hostedTables, rememberHosted, seatCard } from "./invites.js";

const elements = {
  games: document.getElementById("games"),
  form: document.getElementById("new-table"),
  players: document.getElementById("players"),
  options: document.getElementById("options"),
  seatRows: document.getElementById("seat-rows"),
  botNote: document.getElementById("bot-note"),
  turnSeconds: document.getElementById("turn-seconds"),
  clockMode: document.getElementById("clock-mode"),
  clockBank: document.getElementById("clock-bank"),
  clockBankUnit: document.getElementById("clock-bank-unit"),
  clockIncrement: document.getElementById("clock-increment"),
  clockIncrementUnit: document.getElementById("clock-increment-unit"),
  clockEmpty: document.getElementById("clock-empty"),
  clockVacation: document.getElementById("clock-vacation"),
  error: document.getElementById("lobby-error"),
  invites: document.getElementById("invites"),
  inviteList: document.getElementById("invite-list"),
  inviteNote: document.getElementById("invite-note"),
  hosted: document.getElementById("hosted"),
  hostedPanel: document.getElementById("hosted-panel"),
  tables: document.getElementById("tables"),
  variants: document.getElementById("variants"),
  variantsNote: document.getElementById("variants-note"),
  rulebookSetup: document.getElementById("rulebook-setup"),
  preset: document.getElementById("preset"),
  presetSays: document.getElementById("preset-says"),
  houseName: document.getElementById("house-name"),
  houseSave: document.getElementById("house-save"),
  houseForget: document.getElementById("house-forget"),
  houseNote: document.getElementById("house-note"),
  rulesLink: document.getElementById("rules-link"),
  listingPublic: document.getElementById("listing-public"),
  listingRated: document.getElementById("listing-rated"),
  takeError: document.getElementById("take-error"),
  quickGame: document.getElementById("quick-game"),
  quickPlayers: document.getElementById("quick-players"),
  quickWait: document.getElementById("quick-wait"),
  quickPlay: document.getElementById("quick-play"),
  quickError: document.getElementById("quick-error"),
};

// What the open tables and "Play now" say (whole sentences, for the translation catalogues).
const TEXT = {
  takeSeat: () => _("Take a seat"),
  rated: () => _("rated"),
  freeSeats: (count) => ngettext("{n} free seat", "{n} free seats", count),
  takeFailed: (why) => _("The seat could not be taken: {why}", { why }),
  quickFailed: (why) => _("No table could be found or opened: {why}", { why }),
  failed: (status) => _("the server answered {status}", { status }),
};

// The players' words of the setup chooser, in one place (translation catalogues come next).
const SETUP_WORDS = {
  get fromRules() { return _("From the rules"); },
  get saved() { return _("House rules you saved"); },
  get custom() { return _("Your own changes"); },
  get customSays() { return _("Rules changed by hand below; save them to find them here again."); },
  get savedSays() { return _("House rules saved on this device."); },
  rulesLink: (title) => _("The full rules of {title}", { title }),
  get needName() { return _("Give these rules a name first."); },
  tooMany: (most) => _("This device keeps at most {most} saved setups per game; forget one first.", { most }),
  savedAs: (name) => _("Saved on this device as “{name}”.", { name }),
  forgotten: (name) => _("“{name}” is forgotten on this device.", { name }),
  get cannotKeep() { return _("This browser does not let the page keep anything; the rules were not saved."); },
};
const HOUSE_KEY = "gamebag-house-rules"; // localStorage: { gameId: [{ name, options }] }
const MOST_HOUSE_RULES = 20;
const HOUSE_NAME_MOST = 40;
const CUSTOM = "custom";
// The header names whoever is signed in (their account page); a guest sees "Sign in", never a wall.
session().then(({ account }) => {
  if (account) document.getElementById("account-link").textContent = account.name;
});

let games = [];
let selected = null;

function selectGame(game) {
  selected = game;
  for (const card of elements.games.children) {
    card.classList.toggle("selected", card.dataset.game === game.id);
    card.setAttribute("aria-pressed", card.dataset.game === game.id ? "true" : "false");
  }
  elements.players.replaceChildren();
  for (let n = game.min_players; n <= game.max_players; n += 1) {
    elements.players.appendChild(h("option", { value: n, selected: n === game.default_players }, n));
  }
  elements.rulesLink.href = `/rules/${encodeURIComponent(game.id)}`;
  elements.rulesLink.textContent = SETUP_WORDS.rulesLink(game.title);
  renderOptions(game);
  renderSeats();
}

/** The house rules saved on this device for each game (names and option values), bounded. */
function houseRules() {
  try {
    const kept = JSON.parse(window.localStorage.getItem(HOUSE_KEY) || "{}");
    return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : {};
  } catch {
    return {};
  }
}

/** The saved setups of ``game``, each keeping only the game's own option names. */
function savedSetups(game) {
  const names = new Set(game.options.map((o) => o.name));
  const list = Array.isArray(houseRules()[game.id]) ? houseRules()[game.id] : [];
  return list
    .filter((item) => item && typeof item.name === "string" && item.options && typeof item.options === "object")
    .slice(0, MOST_HOUSE_RULES)
    .map((item) => ({
      name: item.name.slice(0, HOUSE_NAME_MOST),
      options: Object.fromEntries(Object.entries(item.options).filter(([name]) => names.has(name))),
    }));
}

function keepSetups(game, list) {
  const all = houseRules();
  all[game.id] = list;
  window.localStorage.setItem(HOUSE_KEY, JSON.stringify(all));
}

/** The setup chooser: the game's presets (the rulebook first), the house rules saved here, "your own". */
function renderPresets(game) {
  const saved = savedSetups(game);
  elements.preset.replaceChildren(
    h("optgroup", { label: SETUP_WORDS.fromRules }, (game.presets || []).map((p) => h("option", { value: `preset:${p.name}` }, p.label))),
    saved.length ? h("optgroup", { label: SETUP_WORDS.saved }, saved.map((item, index) => h("option", { value: `house:${index}` }, item.name))) : null,
    h("option", { value: CUSTOM }, SETUP_WORDS.custom),
  );
}

/** The option values the chooser's entry ``value`` stands for (every option: the others at their defaults). */
function setupValues(value) {
  const values = Object.fromEntries(selected.options.map((o) => [o.name, o.default]));
  if (value.startsWith("preset:")) {
    const preset = (selected.presets || []).find((p) => `preset:${p.name}` === value);
    return preset ? { ...values, ...preset.options } : null;
  }
  if (value.startsWith("house:")) {
    const item = savedSetups(selected)[Number(value.slice(6))];
    return item ? { ...values, ...item.options } : null;
  }
  return null;
}

function setField(input, value) {
  const kind = input.dataset.kind;
  if (kind === "bool") input.checked = value === true;
  else if (kind === "list") input.value = (value || []).join(",");
  else input.value = value ?? "";
}

/** Put the chosen setup's values into the fields. */
function applySetup() {
  const values = setupValues(elements.preset.value);
  if (!values) return;
  for (const input of elements.options.querySelectorAll("[data-option]")) setField(input, values[input.dataset.option]);
  showVariantsNote();
  refreshBots();
}

/** The chooser's entry whose values are the fields' (a preset first), else "your own changes". */
function matchingSetup() {
  const current = JSON.stringify(optionValues());
  const entries = [...elements.preset.querySelectorAll("option")].map((o) => o.value).filter((v) => v !== CUSTOM);
  const same = (value) => {
    const values = setupValues(value);
    return values && JSON.stringify(Object.fromEntries(Object.keys(optionValues()).map((k) => [k, values[k] ?? null]))) === current;
  };
  return entries.find(same) || CUSTOM;
}

function showSetup() {
  const value = matchingSetup();
  elements.preset.value = value;
  const preset = (selected.presets || []).find((p) => `preset:${p.name}` === value);
  elements.presetSays.textContent = preset ? preset.summary : value.startsWith("house:") ? SETUP_WORDS.savedSays : SETUP_WORDS.customSays;
  elements.houseForget.hidden = !value.startsWith("house:");
}

function saveHouseRules() {
  const name = elements.houseName.value.trim().slice(0, HOUSE_NAME_MOST);
  if (!name) {
    elements.houseNote.textContent = SETUP_WORDS.needName;
    return;
  }
  const list = savedSetups(selected).filter((item) => item.name !== name);
  if (list.length >= MOST_HOUSE_RULES) {
    elements.houseNote.textContent = SETUP_WORDS.tooMany(MOST_HOUSE_RULES);
    return;
  }
  try {
    keepSetups(selected, [...list, { name, options: optionValues() }]);
  } catch {
    elements.houseNote.textContent = SETUP_WORDS.cannotKeep;
    return;
  }
  elements.houseName.value = "";
  elements.houseNote.textContent = SETUP_WORDS.savedAs(name);
  renderPresets(selected);
  showSetup();
}

function forgetHouseRules() {
  const value = elements.preset.value;
  if (!value.startsWith("house:")) return;
  const list = savedSetups(selected);
  const [gone] = list.splice(Number(value.slice(6)), 1);
  try {
    keepSetups(selected, list);
  } catch {
    return;
  }
  elements.houseNote.textContent = SETUP_WORDS.forgotten(gone ? gone.name : "");
  renderPresets(selected);
  showSetup();
}

/** How many options differ from the rulebook's setup (each option's default), said on the fold. */
function showVariantsNote() {
  const defaults = Object.fromEntries(selected.options.map((o) => [o.name, o.default]));
  const values = optionValues();
  const changed = Object.keys(values).filter((name) => JSON.stringify(values[name]) !== JSON.stringify(defaults[name] ?? null));
  showSetup();
  const setup = elements.preset.value;
  const chosen = setup !== CUSTOM && setup !== "preset:rulebook" ? elements.preset.selectedOptions[0] : null;
  const count = changed.length
    ? ngettext("{n} rule changed from the rulebook", "{n} rules changed from the rulebook", changed.length)
    : _("the rulebook's setup");
  elements.variantsNote.textContent = chosen
    ? _("· {setup} ({changes})", { setup: chosen.textContent, changes: count }) : `· ${count}`;
}

function renderOptions(game) {
  elements.options.replaceChildren();
  elements.variants.hidden = !game.options.length;
  elements.houseNote.textContent = "";
  renderPresets(game);
  for (const option of game.options) {
    const id = `option-${option.name}`;
    let input;
    if (option.kind === "bool") {
      input = h("input", { type: "checkbox", id, checked: option.default === true });
    } else if (option.kind === "choice") {
      input = h("select", { id }, option.choices.map((c) => h("option", { value: c, selected: c === option.default }, c)));
    } else if (option.kind === "int") {
      input = h("input", {
        type: "number", id, step: 1, min: option.minimum ?? undefined, max: option.maximum ?? undefined,
        value: option.default ?? "", placeholder: option.nullable ? _("none") : "",
      });
    } else {
      input = h("input", { type: "text", id, value: (option.default || []).join(","), placeholder: option.choices.join(",") });
    }
    input.dataset.option = option.name;
    input.dataset.kind = option.kind;
    input.addEventListener("change", refreshBots);
    input.addEventListener("change", showVariantsNote);
    const explained = `${id}-says`;
    input.setAttribute("aria-describedby", explained);
    elements.options.appendChild(h("label", { for: id }, option.label || option.name.replaceAll("_", " ")));
    elements.options.appendChild(h("div", {}, input, h("div", { class: "small muted", id: explained }, option.summary || option.doc)));
  }
  showVariantsNote();
}

function renderSeats() {
  const count = Number(elements.players.value);
  // Only the bots that can play a table of this many players (two-player solvers, policies
  // shipped for one player count); the server refuses the others with the agent's reason.
  const agents = (selected.agents_by_players || {})[String(count)] || selected.agents;
  const preferred = (selected.preferred_by_players || {})[String(count)] || {};
  drawSeats(count, agents, preferred.agent);
  showBotNote(preferred.notice);
  refreshBots();
}

// The bot preselected is the server's choice for this table (the game's heuristic, else random);
// where it is a fallback the server says so in one line, shown under the seats.
function showBotNote(notice) {
  elements.botNote.textContent = notice || "";
  elements.botNote.hidden = !notice;
}

function preferredOf(agents, preferred) {
  return agents.includes(preferred) ? preferred : agents.includes("random") ? "random" : agents[0];
}

// The options change which bots can play too (the equilibrium is solved for the rulebook's
// numbers): ask the server, which checks them as it would on Open, and offer only those.
let botsAsked = 0;
let botsTimer = null;
function refreshBots() {
  clearTimeout(botsTimer);
  botsTimer = setTimeout(async () => {
    const asked = ++botsAsked;
    const count = Number(elements.players.value);
    const response = await fetch("/api/games/agents", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ game: selected.id, players: count, options: optionValues() }),
    }).catch(() => null);
    if (!response || !response.ok || asked !== botsAsked) return; // Open will say what is wrong
    const { agents, preferred: chosen, notice } = await response.json();
    updateBotChoices(agents, chosen);
    showBotNote(notice);
  }, 250);
}

function updateBotChoices(agents, chosen) {
  const preferred = preferredOf(agents, chosen);
  for (const select of elements.seatRows.querySelectorAll("select")) {
    const was = select.value;
    const keep = was === "" || agents.includes(was) ? was : preferred;
    select.replaceChildren(
      h("option", { value: "", selected: keep === "" }, _("a person (invite link)")),
      ...agents.map((a) => h("option", { value: a, selected: a === keep }, _("bot: {name}", { name: a }))),
    );
  }
}

function drawSeats(count, agents, chosen) {
  const preferred = preferredOf(agents, chosen);
  elements.seatRows.replaceChildren();
  for (let seat = 0; seat < count; seat += 1) {
    const kind = h(
      "select",
      { id: `seat-kind-${seat}`, "data-seat": seat, "aria-label": _("Who plays seat {n}", { n: seat + 1 }) },
      h("option", { value: "", selected: seat < 2 }, _("a person (invite link)")),
      agents.map((a) => h("option", { value: a, selected: seat >= 2 && a === preferred }, _("bot: {name}", { name: a }))),
    );
    const name = h("input", {
      id: `seat-name-${seat}`, type: "text", maxlength: 40, placeholder: _("Player {n}", { n: seat + 1 }),
      "aria-label": _("Name for seat {n}", { n: seat + 1 }),
    });
    // The seat the host plays herself: the lobby claims it for this device and takes her there.
    const mine = h("input", { type: "radio", name: "my-seat", id: `my-seat-${seat}`, value: seat, checked: seat === 0 });
    const syncMine = () => {
      mine.disabled = kind.value !== "";
      if (mine.disabled && mine.checked) byIdIn(elements.form, "my-seat-none").checked = true;
    };
    kind.addEventListener("change", syncMine);
    elements.seatRows.appendChild(h("div", { class: "seat-row" }, h("span", {}, _("Seat {n}", { n: seat + 1 })), name, kind,
      h("label", { class: "small my-seat", for: `my-seat-${seat}` }, mine, " ", _("I play this seat"))));
    syncMine();
  }
  elements.seatRows.appendChild(h("label", { class: "small", for: "my-seat-none" },
    h("input", { type: "radio", name: "my-seat", id: "my-seat-none", value: "" }), " ", _("I only host (I play no seat)")));
}

function byIdIn(root, id) {
  return root.querySelector(`#${id}`);
}

/** The seat the host chose to play (a person's seat), or null. */
function mySeat() {
  const chosen = elements.form.querySelector("input[name='my-seat']:checked");
  return chosen && chosen.value !== "" ? Number(chosen.value) : null;
}

function optionValues() {
  const options = {};
  for (const input of elements.options.querySelectorAll("[data-option]")) {
    const kind = input.dataset.kind;
    if (kind === "bool") options[input.dataset.option] = input.checked;
    else if (kind === "int") options[input.dataset.option] = input.value === "" ? null : Number(input.value);
    else if (kind === "list") options[input.dataset.option] = input.value.split(",").map((s) => s.trim()).filter(Boolean);
    else options[input.dataset.option] = input.value;
  }
  return options;
}

// The time bank's units per mode: the form asks in the mode's own units, the server in seconds.
const CLOCK_UNITS = {
  realtime: { bank: 60, bankWords: () => _("minutes per player"), increment: 1, incrementWords: () => _("seconds per move"), bankDefault: 5 },
  turn: { bank: 86400, bankWords: () => _("days per player"), increment: 3600, incrementWords: () => _("hours per move"), bankDefault: 3 },
};

function showClockFields() {
  const units = CLOCK_UNITS[elements.clockMode.value];
  for (const field of document.querySelectorAll(".clock-field")) {
    field.hidden = !units || (field.classList.contains("turn-field") && elements.clockMode.value !== "turn");
  }
  if (!units) return;
  elements.clockBankUnit.textContent = units.bankWords();
  elements.clockIncrementUnit.textContent = units.incrementWords();
  if (elements.clockBank.value === "") elements.clockBank.value = String(units.bankDefault);
}

function clockRequest() {
  const mode = elements.clockMode.value;
  const units = CLOCK_UNITS[mode];
  if (!units) return null;
  const clock = {
    mode,
    bank_seconds: Number(elements.clockBank.value) * units.bank,
    increment_seconds: Number(elements.clockIncrement.value || 0) * units.increment,
    on_empty: elements.clockEmpty.value,
  };
  if (mode === "turn") clock.vacation_days = Number(elements.clockVacation.value || 0);
  return clock;
}

elements.clockMode.addEventListener("change", () => {
  elements.clockBank.value = "";
  showClockFields();
});

async function createTable(event) {
  event.preventDefault();
  elements.error.textContent = "";
  const count = Number(elements.players.value);
  const seats = [];
  for (let seat = 0; seat < count; seat += 1) {
    const bot = document.getElementById(`seat-kind-${seat}`).value;
    const name = document.getElementById(`seat-name-${seat}`).value.trim();
    seats.push({ name: name || null, bot: bot || null });
  }
  const turn = elements.turnSeconds.value;
  const request = {
    game: selected.id, players: count, options: optionValues(), seats,
    turn_seconds: turn === "" ? null : Number(turn),
    clock: clockRequest(),
    public: elements.listingPublic.checked, rated: elements.listingRated.checked,
  };
  const response = await fetch("/api/tables", {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request),
  });
  const answer = await response.json();
  if (!response.ok) {
    elements.error.textContent = answer.error || _("the table could not be opened");
    return;
  }
  const mine = mySeat();
  const own = mine === null ? null : answer.seats.find((seat) => seat.seat === mine && !seat.bot);
  if (own) {
    try {
      await claimInvite(answer.id, own.invite.split("#invite=")[1]);
    } catch (error) {
      elements.error.textContent = _("Your own seat could not be taken: {why}; open its invite link below.", { why: error.message });
    }
  }
  const othersInvited = answer.seats.some((seat) => !seat.bot && seat !== own);
  rememberHosted({ id: answer.id, game: selected.title, host: answer.host, at: Date.now() });
  if (own && !othersInvited && !elements.error.textContent) {
    window.location.assign(`/play/${encodeURIComponent(answer.id)}`); // nobody to invite: straight to her seat
    return;
  }
  // What the server changed or chose (a rated request with a variant opened casual, a bot's fallback).
  document.getElementById("table-notices").textContent = (answer.notices || []).join(" ");
  showInvites(answer, own && !elements.error.textContent ? own : null);
  loadTables();
}

async function showInvites(answer, own) {
  elements.invites.hidden = false;
  const hostUrl = `${window.location.origin}${answer.host}`;
  const call = hostCall(answer.id, answer.host_token);
  const showError = (text) => {
    elements.error.textContent = text;
  };
  const draw = async () => {
    const data = await call(`/api/tables/${encodeURIComponent(answer.id)}/host`);
    elements.inviteNote.textContent = addressNote(data.invite_base);
    const ownCard = own
      ? h("div", { class: "invite-card own-seat", "data-seat": own.seat },
        h("div", { class: "muted small" }, _("your seat")),
        h("div", {},
          h("strong", {}, own.name), h("span", { class: "small" }, " · ", _("kept on this device")),
          h("div", { class: "actions" },
            h("a", { class: "button primary", href: `/play/${encodeURIComponent(answer.id)}`, id: "take-my-seat" }, _("Take my seat")))))
      : null;
    const others = data.seats.filter((seat) => !own || seat.seat !== own.seat);
    elements.inviteList.replaceChildren(
      ...[ownCard].filter(Boolean),
      ...others.map((seat) => seatCard(seat, data.agents, answer.id, call, draw, showError, data.timeout_agent)),
      h("div", { class: "invite-card" },
        h("div", { class: "muted small" }, _("host page")),
        h("div", {},
          h("label", { for: "host-link" }, h("strong", {}, _("Your host page")),
            h("span", { class: "small" }, " · ", _("recovers these links later, hands a no-show's seat to a bot"))),
          h("input", { id: "host-link", type: "text", readonly: true, value: hostUrl }),
          h("div", { class: "actions" }, copyButton(hostUrl, _("Copy the host page link")),
            h("a", { class: "button", href: answer.host, id: "host-page" }, _("Open the host page")),
            h("a", { class: "button", href: answer.spectate }, _("Watch"))))),
    );
  };
  try {
    await draw();
  } catch (error) {
    elements.error.textContent = _("The invites could not be shown: {why}", { why: error.message });
  }
  elements.invites.scrollIntoView({ behavior: "smooth" });
  showHosted();
}

function showHosted() {
  const hosted = hostedTables();
  elements.hostedPanel.hidden = !hosted.length;
  elements.hosted.replaceChildren(
    ...hosted.map((t) => h("li", {}, h("a", { href: t.host }, `${t.game || _("table")} ${t.id}`),
      h("span", { class: "small muted" }, " · ", _("opened {when}", { when: formatDate(new Date(t.at || 0)) })))),
  );
}

/** A seat as the list names it: a bot's name already says its kind ("Bot 2 (heuristic)"). */
function seatWords(seat) {
  if (seat.bot) return seat.agent && seat.name.includes(`(${seat.agent})`) ? seat.name : _("{name} (bot)", { name: seat.name });
  return seat.connected ? `${seat.name} ●` : seat.name;
}

function openedWords(seconds) {
  if (!seconds) return "";
  return formatDate(new Date(seconds * 1000));
}

function progressWords(table) {
  if (!table.finished) return ngettext("playing · {n} event so far", "playing · {n} events so far", table.step);
  const winners = table.winner_names || [];
  if (!winners.length) return _("finished · no winner");
  return winners.length > 1
    ? _("finished · {names} shared the win", { names: listWords(winners) })
    : _("finished · {name} won", { name: winners[0] });
}

async function loadTables() {
  const response = await fetch("/api/tables");
  if (!response.ok) return; // past this address's budget of listings (429): the list stays as it was
  const tables = await response.json();
  elements.tables.replaceChildren(
    ...tables.map((table) =>
      h(
        "tr",
        { "data-table": table.id },
        h("td", {}, table.title, table.rated ? h("span", { class: "small rated" }, " · ", TEXT.rated()) : null,
          h("span", { class: "small muted opened" }, openedWords(table.created_at))),
        h("td", { class: "small" }, table.seats.map(seatWords).join(", "),
          table.free_seats && table.free_seats.length ? h("div", { class: "muted" }, TEXT.freeSeats(table.free_seats.length)) : null),
        h("td", { class: "small" }, progressWords(table)),
        h(
          "td",
          {},
          table.free_seats && table.free_seats.length
            ? [h("button", { type: "button", class: "take-seat", onclick: () => takeSeat(table.id) }, TEXT.takeSeat()), " · "] : null,
          h("a", { href: `/play/${table.id}` }, _("watch")),
          table.finished ? [" · ", h("a", { href: `/replay/${table.id}` }, _("replay")), " · ",
            h("a", { href: `/api/tables/${table.id}/record` }, _("record"))] : null,
        ),
      ),
    ),
  );
  if (!tables.length) elements.tables.appendChild(h("tr", {}, h("td", { colspan: 4, class: "muted" }, _("No tables yet."))));
}

/** Take the lowest free seat of an open table: its token is kept on this device, then to the table. */
async function takeSeat(tableId) {
  elements.takeError.textContent = "";
  const held = storedSeat(tableId);
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/take`, {
    // Signed in, the session's CSRF token goes along (changeHeaders), so the seat becomes the account's.
    method: "POST", headers: { ...(await changeHeaders()), ...(held ? { "x-seat-token": held } : {}) }, body: "{}",
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    elements.takeError.textContent = TEXT.takeFailed(answer.error || TEXT.failed(response.status));
    return;
  }
  keepSeat(answer.id, answer.token);
  window.location.assign(answer.play);
}

function quickPlayers() {
  const game = games.find((g) => g.id === elements.quickGame.value) || games[0];
  elements.quickPlayers.replaceChildren();
  for (let n = Math.max(2, game.min_players); n <= game.max_players; n += 1) {
    elements.quickPlayers.appendChild(h("option", { value: n, selected: n === game.default_players }, n));
  }
}

async function playNow() {
  elements.quickError.textContent = "";
  const request = {
    game: elements.quickGame.value, players: Number(elements.quickPlayers.value), wait: Number(elements.quickWait.value),
    held: keptSeats().map((seat) => seat.table).slice(-50),
  };
  const response = await fetch("/api/quickplay", {
    method: "POST", headers: await changeHeaders(), body: JSON.stringify(request),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    elements.quickError.textContent = TEXT.quickFailed(answer.error || TEXT.failed(response.status));
    return;
  }
  keepSeat(answer.id, answer.token);
  window.location.assign(answer.play);
}

async function start() {
  const response = await fetch("/api/games");
  games = await response.json();
  elements.games.replaceChildren(
    ...games.map((game) =>
      // A button: the keyboard and screen readers reach every game, not only the preselected one.
      h(
        "button",
        { type: "button", class: "game-card", "data-game": game.id, "aria-pressed": "false", onclick: () => selectGame(game) },
        h("strong", { class: "game-title" }, game.title),
        h("span", { class: "small muted" }, _("{low}–{high} players", { low: game.min_players, high: game.max_players })),
        h("span", { class: "small" }, game.summary),
      ),
    ),
  );
  const wanted = new URLSearchParams(window.location.search).get("game");
  selectGame(games.find((g) => g.id === wanted) || games.find((g) => g.id === "wriggle-roulette") || games[0]);
  elements.players.addEventListener("change", renderSeats);
  elements.rulebookSetup.addEventListener("click", () => {
    renderOptions(selected);
    refreshBots();
  });
  elements.preset.addEventListener("change", applySetup);
  elements.houseSave.addEventListener("click", saveHouseRules);
  elements.houseForget.addEventListener("click", forgetHouseRules);
  elements.form.addEventListener("submit", createTable);
  elements.quickGame.replaceChildren(...games.map((game) => h("option", { value: game.id }, game.title)));
  elements.quickGame.addEventListener("change", quickPlayers);
  quickPlayers();
  elements.quickPlay.addEventListener("click", playNow);
  loadTables();
  showHosted();
}

start();
