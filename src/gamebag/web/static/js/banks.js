// The time banks on the table page: every seat's badge, your own bank line and the vacation
// button, from the server's ``banks`` (public facts of every seat's bank, web/tables/banks.py).
import { h } from "./common.js";
import { _, formatDate } from "./i18n.js";

// The time banks' sentences (one place, for the translation catalogues).
const BANK_WORDS = {
  running: (name, left) => _("{name}'s bank: {left} left, running.", { name, left }),
  paused: (name, left) => _("{name}'s bank: {left} left.", { name, left }),
  vacation: (name, until) => _("{name} is on vacation until {until}.", { name, until }),
  out: (name) => _("{name}'s bank ran out.", { name }),
  yours: (left) => _("Your bank: {left} left.", { left }),
  yoursVacation: (until) => _("You are on vacation until {until}; your bank is paused.", { until }),
  take: () => _("Take a vacation"),
  end: () => _("End my vacation"),
  failed: () => _("The vacation could not be changed."),
};

function bankDuration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  // Translators: a time bank's days and hours, short (it fits a badge at 360 px).
  if (days) return _("{days} d {hours} h", { days, hours });
  // Translators: a time bank's hours and minutes, short (it fits a badge at 360 px).
  if (hours) return _("{hours} h {minutes} min", { hours, minutes });
  return `${minutes}:${String(s % 60).padStart(2, "0")}`;
}

function dateWords(epochSeconds) {
  return formatDate(new Date(epochSeconds * 1000));
}

export class TableBanks {
  /** ``elements``: seats, bankOwn, bankOwnSays, vacation; ``current()``: the last state message. */
  constructor({ elements, tableId, token, current, notice }) {
    this.elements = elements;
    this.tableId = tableId;
    this.token = token;
    this.current = current;
    this.notice = notice;
    this.at = null; // performance.now() when the last banks arrived (they count down from then)
    elements.vacation.addEventListener("click", () => this.toggleVacation());
  }

  arrived() {
    this.at = performance.now();
  }

  now(bank) {
    // Seconds passed since the message: a vacation's allowance drains first, then a running bank.
    let passed = this.at === null ? 0 : (performance.now() - this.at) / 1000;
    let vacationLeft = bank.vacation_left;
    if (bank.vacation) {
      const used = Math.min(passed, vacationLeft);
      vacationLeft -= used;
      passed -= used;
    }
    return { left: bank.running ? Math.max(0, bank.bank_left - passed) : bank.bank_left, vacationLeft };
  }

  sentence(seat, bank) {
    if (bank.out) return BANK_WORDS.out(seat.name);
    if (bank.vacation) return BANK_WORDS.vacation(seat.name, dateWords(bank.vacation_until));
    const left = bankDuration(this.now(bank).left);
    return bank.running ? BANK_WORDS.running(seat.name, left) : BANK_WORDS.paused(seat.name, left);
  }

  badge(current, seat) {
    const banks = current && current.table.banks;
    const bank = banks && banks.seats.find((b) => b.seat === seat.seat);
    if (!bank || (seat.bot && !bank.out)) return null; // a seat a bot took has no clock left to show
    // Translators: a time bank's badge when the bank ran out, and when its player is on vacation (short).
    const shown = bank.out ? _("out") : bank.vacation ? _("vacation") : bankDuration(this.now(bank).left);
    // The badge is short (seen at 360 px); the whole sentence is for screen readers and the tooltip.
    return h(
      "span",
      { class: `badge bank${bank.running ? " running" : ""}`, title: this.sentence(seat, bank) },
      h("span", { "aria-hidden": "true", "data-bank": seat.seat }, `⏱ ${shown}`),
      h("span", { class: "visually-hidden" }, this.sentence(seat, bank)),
    );
  }

  renderOwn(current) {
    const { bankOwn, bankOwnSays, vacation } = this.elements;
    const banks = current && current.table.banks;
    const me = current ? current.seat : null;
    const bank = banks && me !== null ? banks.seats.find((b) => b.seat === me) : null;
    bankOwn.hidden = !bank || Boolean(current.result);
    if (bankOwn.hidden) return;
    bankOwnSays.textContent = bank.vacation
      ? BANK_WORDS.yoursVacation(dateWords(bank.vacation_until))
      : BANK_WORDS.yours(bankDuration(this.now(bank).left));
    const allowed = banks.settings.vacation_days > 0 && !bank.out && (bank.vacation || bank.vacation_left > 0);
    vacation.hidden = !allowed;
    vacation.textContent = bank.vacation ? BANK_WORDS.end() : BANK_WORDS.take();
    vacation.setAttribute("aria-pressed", bank.vacation ? "true" : "false");
  }

  tick(current) {
    const banks = current && current.table.banks;
    if (!banks || current.result) return;
    for (const bank of banks.seats) {
      const badge = this.elements.seats.querySelector(`[data-bank="${bank.seat}"]`);
      if (badge && bank.running && !bank.vacation && !bank.out) badge.textContent = `⏱ ${bankDuration(this.now(bank).left)}`;
    }
    const mine = current.seat === null ? null : banks.seats.find((b) => b.seat === current.seat);
    if (mine && !mine.vacation && mine.running) {
      this.elements.bankOwnSays.textContent = BANK_WORDS.yours(bankDuration(this.now(mine).left));
    }
  }

  async toggleVacation() {
    const current = this.current();
    const banks = current && current.table.banks;
    const mine = banks && banks.seats.find((b) => b.seat === current.seat);
    if (!mine || !this.token) return;
    const response = await fetch(`/api/tables/${encodeURIComponent(this.tableId)}/vacation`, {
      method: "POST", headers: { "content-type": "application/json", "x-seat-token": this.token },
      body: JSON.stringify({ on: !mine.vacation }),
    });
    if (!response.ok) {
      const answer = await response.json().catch(() => ({}));
      this.notice(answer.error || BANK_WORDS.failed());
    }
  }
}
