// Invite cards shared by the lobby and the host page: each person's seat with its link, its QR
// code, a new link on request and, for a seat nobody has taken, a hand-over to a bot.
import { h, qrPicture } from "./common.js";
import { _ } from "./i18n.js";

export function hostCall(tableId, hostToken) {
  return async (path, options = {}) => {
    const response = await fetch(path, {
      ...options,
      headers: { "x-host-token": hostToken || "", ...(options.body ? { "content-type": "application/json" } : {}) },
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(answer.error || _("the server answered {status}", { status: response.status }));
    return answer;
  };
}

export function copyButton(text, label) {
  const button = h("button", {
    type: "button",
    "aria-label": label,
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = _("Copied");
      } catch (error) {
        button.textContent = _("Select the link and copy it");
      }
    },
  }, _("Copy"));
  return button;
}

/** Share a link through the phone's own share sheet (the Web Share API) where it has one;
 * null elsewhere (the Copy button next to it does the job there). */
export function shareButton(url, who) {
  if (typeof navigator.share !== "function") return null;
  return h("button", {
    type: "button", class: "primary", "aria-label": _("Share {name}'s link", { name: who }),
    onclick: async () => {
      try {
        await navigator.share({ title: "gamebag", text: _("{name}: your seat at the table", { name: who }), url });
      } catch (error) {
        // the person closed the share sheet: nothing to do
      }
    },
  }, _("Share"));
}

// ``preferred``: the bot preselected for a hand-over, the table's timeout agent (the game's
// heuristic where it has one, else random: never an agent the game lacks).
export function seatCard(seat, agents, tableId, call, reload, showError, preferred = "random") {
  const status = seat.bot ? _("played by a bot ({agent})", { agent: seat.agent }) : seat.connected ? _("connected")
    : seat.claimed ? _("claimed, not connected now") : _("not claimed yet");
  if (seat.bot) {
    return h("div", { class: "invite-card", "data-seat": seat.seat },
      h("div", { class: "muted small" }, _("bot seat")),
      h("div", {}, h("strong", {}, seat.name), h("div", { class: "small" }, status)));
  }
  const linkId = `invite-${seat.seat}`;
  const agent = h("select", { id: `bot-agent-${seat.seat}`, "aria-label": _("Agent for {name}'s seat", { name: seat.name }) },
    agents.map((a) => h("option", { value: a, selected: a === preferred }, a)));
  const toBot = h("button", {
    type: "button", id: `to-bot-${seat.seat}`,
    onclick: async () => {
      toBot.disabled = true;
      try {
        await call(`/api/tables/${encodeURIComponent(tableId)}/seats/${seat.seat}/bot`, {
          method: "POST", body: JSON.stringify({ agent: agent.value }),
        });
        await reload();
      } catch (error) {
        showError(_("The seat could not be handed to a bot: {why}", { why: error.message }));
        toBot.disabled = false;
      }
    },
  }, _("Hand this seat to a bot"));
  const reissue = h("button", {
    type: "button",
    onclick: async () => {
      try {
        await call(`/api/tables/${encodeURIComponent(tableId)}/seats/${seat.seat}/reissue`, { method: "POST", body: "{}" });
        await reload();
      } catch (error) {
        showError(_("A new link could not be made: {why}", { why: error.message }));
      }
    },
  }, seat.claimed ? _("New link (the device holding the seat loses it)") : _("New link (the old one stops working)"));
  if (seat.claimed) {
    // The device that opened the link holds the seat; the host never sees its key (nor its hand).
    return h("div", { class: "invite-card", "data-seat": seat.seat, "data-claimed": "true" },
      h("div", { class: "muted small" }, _("link used")),
      h("div", {},
        h("strong", {}, seat.name), h("span", { class: "small" }, ` · ${status}`),
        h("p", { class: "small" }, _("Its invite link was opened: the seat belongs to that device now.")),
        h("div", { class: "actions" }, reissue),
        seat.connected ? null : h("div", { class: "actions" }, agent, toBot)));
  }
  return h("div", { class: "invite-card", "data-seat": seat.seat },
    qrPicture(seat.qr, _("QR code of {name}'s invite link", { name: seat.name })),
    h("div", {},
      h("label", { for: linkId }, h("strong", {}, seat.name), h("span", { class: "small" }, ` · ${status}`)),
      h("input", { id: linkId, type: "text", readonly: true, value: seat.invite, "data-invite": seat.seat }),
      h("div", { class: "actions" },
        shareButton(seat.invite, seat.name),
        copyButton(seat.invite, _("Copy {name}'s link", { name: seat.name })),
        h("a", { href: seat.invite, class: "button", target: "_blank", rel: "noopener" }, _("Open")),
        reissue),
      keepForAccount(seat, tableId, call, showError),
      seat.connected ? null : h("div", { class: "actions" }, agent, toBot)));
}

const KEEP_TEXT = {
  label: () => _("Or keep it for a friend's account (their name):"),
  button: () => _("Keep for them"),
  kept: (name) => _("Kept for {name}: the seat shows on their account, and only they can take it.", { name }),
  failed: (reason) => _("The seat could not be kept for that account: {reason}", { reason }),
};

/** A signed-in friend invited by name: the seat's invite is kept for their account (it shows
 * among their seats, on any device they sign in on) and nobody else can claim it. */
function keepForAccount(seat, tableId, call, showError) {
  const inputId = `keep-${seat.seat}`;
  const input = h("input", { id: inputId, type: "text", maxlength: 32, autocomplete: "off" });
  const note = h("p", { class: "small", role: "status" },
    seat.kept_for ? KEEP_TEXT.kept(seat.kept_for) : "");
  const form = h("form", {
    class: "actions keep-for",
    onsubmit: async (event) => {
      event.preventDefault();
      try {
        const answer = await call(`/api/tables/${encodeURIComponent(tableId)}/seats/${seat.seat}/invite-account`, {
          method: "POST", body: JSON.stringify({ name: input.value }),
        });
        note.textContent = KEEP_TEXT.kept(answer.account);
      } catch (error) {
        showError(KEEP_TEXT.failed(error.message));
      }
    },
  }, h("label", { for: inputId, class: "small" }, KEEP_TEXT.label()), input, h("button", { type: "submit" }, KEEP_TEXT.button()));
  return h("div", {}, form, note);
}


/** The address note: links must use an address other devices can open. */
export function addressNote(inviteBase) {
  if (inviteBase) return _("Links use {address}, the address phones on this network can open.", { address: inviteBase });
  if (["localhost", "127.0.0.1", "[::1]"].includes(window.location.hostname)) {
    return _("These links use this computer's own address, which other devices cannot open: start the server with {option} so phones on your network can join.", { option: "--host 0.0.0.0" });
  }
  return "";
}

/** Remember a table this browser tab opened, so its host page can be found again from the lobby.
 * Host links are keys: they stay in this tab's sessionStorage only (gone when it closes), never in
 * localStorage, which outlives the visit on a shared device. */
export function rememberHosted(entry) {
  const list = hostedTables().filter((t) => t.id !== entry.id);
  list.unshift(entry);
  window.sessionStorage.setItem("gamebag-hosted", JSON.stringify(list.slice(0, 20)));
}

export function hostedTables() {
  window.localStorage.removeItem("gamebag-hosted"); // where older pages kept host links: forgotten
  try {
    const list = JSON.parse(window.sessionStorage.getItem("gamebag-hosted") || "[]");
    return Array.isArray(list) ? list.filter((t) => t && typeof t.id === "string" && typeof t.host === "string") : [];
  } catch (error) {
    return [];
  }
}
