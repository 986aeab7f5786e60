// The host page: every seat's invite link and QR code (recovered at any time with the host
// link), who is connected, a new link for a seat, a no-show's seat handed to a bot, and the chat's switches.
import { h, qrPicture, tableIdFromPath } from "./common.js";
import { addressNote, copyButton, hostCall, seatCard } from "./invites.js";
import { _ } from "./i18n.js";

const tableId = tableIdFromPath();
const hostToken = (/(?:^|[#&])host=([A-Za-z0-9_-]+)/.exec(window.location.hash) || [])[1] || null;
const elements = {
  title: document.getElementById("title"),
  error: document.getElementById("host-error"),
  seats: document.getElementById("host-seats"),
  watch: document.getElementById("host-watch"),
  note: document.getElementById("address-note"),
  coach: document.getElementById("host-coach"),
  listing: document.getElementById("host-listing"),
  chat: document.getElementById("host-chat"),
};

// What the listing control says (whole sentences, for the translation catalogues).
const LISTING_TEXT = {
  listed: () => _("This table is listed in the lobby."),
  unlisted: () => _("This table is reached by its invite links only."),
  list: () => _("List it in the lobby"),
  unlist: () => _("Take it off the lobby"),
};

// What the chat's controls say.
const CHAT_TEXT = {
  spectatorsOn: () => _("Spectators' chat is on."),
  spectatorsOff: () => _("Spectators' chat is off."),
  turnOn: () => _("Turn spectators' chat on"),
  turnOff: () => _("Turn spectators' chat off"),
  mute: (name) => _("Mute {name}", { name }),
  unmute: (name) => _("Unmute {name}", { name }),
  muted: (name) => _("{name} is muted.", { name }),
  speaks: (name) => _("{name} may chat.", { name }),
};

const call = hostCall(tableId, hostToken);
const showError = (text) => {
  elements.error.textContent = text;
};

async function load() {
  if (!hostToken) {
    elements.error.textContent = _("This page needs the host link you got when the table was opened (it ends in {end}).", { end: "#host=…" });
    return;
  }
  try {
    const answer = await call(`/api/tables/${encodeURIComponent(tableId)}/host`);
    elements.error.textContent = "";
    elements.title.textContent = _("Host · {title}", { title: answer.table.title });
    elements.note.textContent = addressNote(answer.invite_base);
    elements.seats.replaceChildren(...answer.seats.map((seat) => seatCard(seat, answer.agents, tableId, call, load, showError, answer.timeout_agent)));
    elements.coach.replaceChildren(coachControls(answer.table));
    elements.listing.replaceChildren(await listingControls());
    elements.chat.replaceChildren(await chatControls(answer.seats));
    elements.watch.replaceChildren(
      h("div", { class: "invite-card" },
        qrPicture(answer.spectate_qr, _("QR code of the watch link")),
        h("div", {},
          h("label", { for: "watch-link" }, h("strong", {}, _("Spectators"))),
          h("input", { id: "watch-link", type: "text", readonly: true, value: answer.spectate }),
          h("div", { class: "actions" }, copyButton(answer.spectate, _("Copy the watch link")),
            h("a", { class: "button", href: `/play/${encodeURIComponent(tableId)}` }, _("Watch")),
            answer.next ? h("a", { class: "button", href: answer.next }, _("The rematch")) : null))),
    );
  } catch (error) {
    elements.error.textContent = _("This table's invites could not be loaded: {why}", { why: error.message });
  }
}

async function listingControls() {
  const listing = await call(`/api/tables/${encodeURIComponent(tableId)}/listing`);
  return h("div", { class: "actions" },
    h("span", { id: "host-listing-state" }, listing.public ? LISTING_TEXT.listed() : LISTING_TEXT.unlisted()),
    h("button", {
      id: "host-listing-toggle", type: "button", "aria-pressed": listing.public ? "true" : "false",
      onclick: async () => {
        try {
          await call(`/api/tables/${encodeURIComponent(tableId)}/public`, { method: "POST", body: JSON.stringify({ public: !listing.public }) });
          load();
        } catch (error) {
          showError(error.message);
        }
      },
    }, listing.public ? LISTING_TEXT.unlist() : LISTING_TEXT.list()));
}

/** The spectators' chat switch and a mute toggle for each seat a person plays. */
async function chatControls(seats) {
  const base = `/api/tables/${encodeURIComponent(tableId)}/chat/settings`;
  const settings = await call(base);
  const change = async (body) => {
    try {
      await call(base, { method: "POST", body: JSON.stringify(body) });
      load();
    } catch (error) {
      showError(error.message);
    }
  };
  const spectators = h("div", { class: "actions" },
    h("span", { id: "host-chat-spectators-state" }, settings.spectators ? CHAT_TEXT.spectatorsOn() : CHAT_TEXT.spectatorsOff()),
    h("button", {
      id: "host-chat-spectators", type: "button", "aria-pressed": settings.spectators ? "true" : "false",
      onclick: () => change({ spectators: !settings.spectators }),
    }, settings.spectators ? CHAT_TEXT.turnOff() : CHAT_TEXT.turnOn()));
  const mutes = seats.filter((seat) => !seat.bot).map((seat) => {
    const muted = settings.muted.includes(seat.seat);
    return h("div", { class: "actions", "data-seat": seat.seat },
      h("span", {}, (muted ? CHAT_TEXT.muted : CHAT_TEXT.speaks)(seat.name)),
      h("button", {
        id: `host-chat-mute-${seat.seat}`, type: "button", "aria-pressed": muted ? "true" : "false",
        onclick: () => change({ seat: seat.seat, muted: !muted }),
      }, (muted ? CHAT_TEXT.unmute : CHAT_TEXT.mute)(seat.name)));
  });
  return h("div", {}, spectators, ...mutes);
}

function coachControls(table) {
  const coach = table.coach;
  const state = coach.on ? _("The coach is on: every player agreed.") : coach.offered
    ? _("The coach is offered: {agreed} of {players} players agreed so far.", { agreed: coach.agreed.length, players: coach.humans.length })
    : _("The coach is off.");
  return h("div", { class: "actions" },
    h("span", { id: "host-coach-state" }, state),
    table.finished ? null : h("button", {
      id: "host-coach-toggle",
      type: "button",
      "aria-pressed": coach.offered ? "true" : "false",
      onclick: async () => {
        try {
          await call(`/api/tables/${encodeURIComponent(tableId)}/coach`, { method: "POST", body: JSON.stringify({ on: !coach.offered }) });
          load();
        } catch (error) {
          showError(error.message);
        }
      },
    }, coach.offered ? _("Withdraw the coach") : _("Offer the coach")));
}

load();
window.setInterval(() => {
  if (!document.querySelector("main").contains(document.activeElement)) load();
}, 10000);
