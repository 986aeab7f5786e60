// The table's chat (issue 40): what people type and their reactions, beside the log; on a phone a
// drawer opened from the top bar (with an unread count), in the page's flow so that it never covers
// the board or the move sheet. Every line is built from text nodes (never markup), under its
// author's name and in a style of its own, so no line can pass for one of the game's.
import { h } from "./common.js";
import { _, formatNumber, ngettext } from "./i18n.js";

// What the chat says (whole sentences, for the translation catalogues).
const TEXTS = {
  get seatLabel() { return _("Message to the table"); },
  get spectatorLabel() { return _("Message to the other spectators"); },
  get spectatorsOff() {
    return _("Spectators' chat is off at this table; the host can turn it on. You can still read the players' chat.");
  },
  get spectatorsOn() { return _("Spectators read what you write here; the players do not."); },
  get muted() { return _("The host has muted your chat at this table; you can still read it."); },
  get notConnected() { return _("Not connected: reconnecting, try again in a moment."); },
  get openLabel() { return _("Chat"); },
  openUnread: (count) => ngettext("Chat, {n} unread", "Chat, {n} unread", count),
  unread: (count) => ngettext("{n} unread chat message.", "{n} unread chat messages.", count),
  reacted: (name) => _("reacted: {reaction}", { reaction: name }),
};

// The reactions the server takes (chat.REACTIONS), each drawn as an emoji with a name for screen readers.
export const REACTIONS = {
  thumbs_up: { emoji: "👍", get name() { return _("thumbs up"); } },
  laugh: { emoji: "😂", get name() { return _("laughing"); } },
  wow: { emoji: "😮", get name() { return _("wow"); } },
  sad: { emoji: "😢", get name() { return _("sad"); } },
  party: { emoji: "🎉", get name() { return _("party"); } },
  think: { emoji: "🤔", get name() { return _("thinking"); } },
};

/** One chat line or reaction as a list item: text nodes only, the author's name apart. */
export function chatItem(line, fresh) {
  const reaction = line.kind === "reaction" ? REACTIONS[line.body] : null;
  const body = reaction
    ? h("span", { class: "chat-reaction", role: "img", "aria-label": TEXTS.reacted(reaction.name), title: reaction.name }, reaction.emoji)
    : h("span", { class: "chat-body" }, line.body);
  return h("li", { class: `chat-line${fresh ? " fresh" : ""}`, "data-chat-id": line.id, "data-step": line.step },
    h("span", { class: "chat-name" }, line.name), ": ", body);
}

const byId = (id) => document.getElementById(id);

/** The chat of the table page: ``handle`` takes the socket's chat messages, ``setSeat`` who reads. */
export class TableChat {
  constructor(client) {
    this.client = client;
    this.seat = undefined; // unknown until the server welcomes this reader (null: a spectator)
    this.settings = { spectators: false, muted: false };
    this.unread = 0;
    this.sent = new Map(); // ref -> the text of a line sent lately, given back to the input if it is refused
    this.ref = 0;
    this.elements = {
      panel: byId("chat-panel"), lines: byId("chat-lines"), spectatorBox: byId("chat-spectators"),
      spectatorLines: byId("chat-spectator-lines"), form: byId("chat-form"), input: byId("chat-input"),
      label: byId("chat-input-label"), state: byId("chat-state"), notice: byId("chat-notice"),
      open: byId("chat-open"), close: byId("chat-close"), count: byId("chat-unread"), announce: byId("chat-announce"),
      reactions: byId("chat-reactions"),
    };
    this.build();
  }

  build() {
    const e = this.elements;
    e.reactions.replaceChildren(...Object.entries(REACTIONS).map(([code, reaction]) => h("button", {
      type: "button", class: "reaction-button", "data-reaction": code, "aria-label": reaction.name, title: reaction.name,
      onclick: () => this.send({ type: "react", reaction: code }),
    }, reaction.emoji)));
    e.form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = e.input.value.trim();
      if (!text) return;
      this.ref += 1;
      if (this.send({ type: "chat", text, ref: `chat-${this.ref}` })) {
        this.sent.set(`chat-${this.ref}`, text);
        if (this.sent.size > 20) this.sent.delete(this.sent.keys().next().value);
        e.input.value = "";
      }
    });
    e.open.addEventListener("click", () => this.setOpen(!e.panel.classList.contains("open")));
    e.close.addEventListener("click", () => {
      this.setOpen(false);
      e.open.focus();
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && e.panel.classList.contains("open")) {
        this.setOpen(false);
        e.open.focus();
      }
    });
    this.showUnread();
  }

  send(message) {
    if (!this.client.send(message)) {
      this.elements.notice.textContent = TEXTS.notConnected;
      return false;
    }
    this.elements.notice.textContent = "";
    return true;
  }

  setSeat(seat) {
    if (seat === this.seat) return;
    this.seat = seat;
    this.showState();
  }

  /** A chat message from the socket: true when it was one (table.js passes on the rest). */
  handle(message) {
    if (message.type === "welcome") {
      this.setSeat(message.seat);
      return false; // the table page may want it too
    }
    if (message.type === "chat") {
      if (message.max_chars) this.elements.input.maxLength = message.max_chars;
      if (message.settings) this.settings = message.settings;
      this.addLines(message.lines || [], !!message.history);
      this.showState();
      return true;
    }
    if (message.type === "chat_settings") {
      this.settings = { spectators: message.spectators, muted: message.muted };
      this.showState();
      return true;
    }
    if (message.type === "error" && message.code === "chat") {
      // Refused: why, next to the input; what was typed comes back to be sent again.
      this.elements.notice.textContent = message.message;
      const text = this.sent.get(message.ref);
      if (text && !this.elements.input.value) this.elements.input.value = text;
      return true;
    }
    return false;
  }

  addLines(lines, history) {
    const e = this.elements;
    if (history) {
      e.lines.replaceChildren();
      e.spectatorLines.replaceChildren();
    }
    let news = 0;
    for (const line of lines) {
      const list = line.channel === "spectators" ? e.spectatorLines : e.lines;
      if (list.querySelector(`[data-chat-id="${Number(line.id)}"]`)) continue; // told twice (a reconnect)
      list.appendChild(chatItem(line, !history));
      if (!history && !(this.seat !== null && line.seat === this.seat)) news += 1;
    }
    for (const list of [e.lines, e.spectatorLines]) list.scrollTop = list.scrollHeight;
    if (news && !this.visible()) {
      this.unread += news;
      this.showUnread();
    }
  }

  visible() {
    return this.elements.panel.getClientRects().length > 0;
  }

  setOpen(open) {
    const e = this.elements;
    e.panel.classList.toggle("open", open);
    e.open.setAttribute("aria-expanded", open ? "true" : "false");
    if (!open) return;
    this.unread = 0;
    this.showUnread();
    // In the page's flow, under the board: brought into view above the move sheet.
    e.panel.scrollIntoView({ block: "start" });
    (e.form.hidden || e.input.disabled ? e.lines : e.input).focus({ preventScroll: true });
  }

  showUnread() {
    const e = this.elements;
    e.count.textContent = this.unread ? formatNumber(this.unread) : "";
    e.count.hidden = !this.unread;
    e.open.setAttribute("aria-label", this.unread ? TEXTS.openUnread(this.unread) : TEXTS.openLabel);
    e.announce.textContent = this.unread ? TEXTS.unread(this.unread) : "";
  }

  /** Who may write, and where: a muted seat and a spectator with the channel off are told why instead. */
  showState() {
    const e = this.elements;
    const spectator = this.seat === null;
    e.spectatorBox.hidden = !spectator;
    let why = null;
    if (spectator && !this.settings.spectators) why = TEXTS.spectatorsOff;
    else if (!spectator && this.settings.muted) why = TEXTS.muted;
    e.form.hidden = !!why;
    e.state.hidden = !why && !spectator;
    e.state.textContent = why || (spectator ? TEXTS.spectatorsOn : "");
    e.label.textContent = spectator ? TEXTS.spectatorLabel : TEXTS.seatLabel;
    if (why) e.notice.textContent = "";
  }
}
