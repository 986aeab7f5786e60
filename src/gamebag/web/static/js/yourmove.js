// "Your move" wherever you are: every table where it is this person's move (a guest's: the seats
// this browser keeps; a signed-in person's: their account's too), asked for every POLL seconds
// (the server says how often; a hidden page asks too, so its notices still come). Browser
// notifications only after the person pressed the button and allowed them, and only while the
// page is in the background; the tab title counts the tables meanwhile.
import { changeHeaders, h, keptSeats } from "./common.js";
import { _, formatNumber, ngettext } from "./i18n.js";

const root = document.getElementById("your-move");

// Everything this widget says (whole sentences, for the translation catalogues).
const TEXT = {
  title: (count) => (count === 0 ? _("Your move: none") : ngettext("Your move: {n} table", "Your move: {n} tables", count)),
  get none() { return _("It is not your move at any table."); },
  // On a table's own page the list is of the other tables (this one says whose move it is itself).
  titleOthers: (count) => (count === 0 ? _("Your move at other tables: none")
    : ngettext("Your move at {n} other table", "Your move at {n} other tables", count)),
  get noneOthers() { return _("It is not your move at any other table."); },
  row: (title, table) => _("{title}, table {table}", { title, table }),
  get notify() { return _("Tell me when it is my move"); },
  get notifyOn() { return _("Notifications are on for this browser."); },
  get notifyDenied() { return _("This browser does not allow notifications from this page; its settings can change that."); },
  get notifyMissing() { return _("This browser cannot show notifications."); },
  get notice() { return _("It is your move"); },
  noticeBody: (title) => _("{title}: it is your move.", { title }),
  tabTitle: (count, title) => `(${formatNumber(count)}) ${title}`,
  get failed() { return _("The list of your tables could not be loaded just now; it is tried again shortly."); },
};

// The table whose page this is, if any: left out of the list (and of the notices) here.
const here = window.location.pathname.startsWith("/play/")
  ? decodeURIComponent(window.location.pathname.split("/").filter(Boolean).pop() || "") : null;
let pollSeconds = 20;
let known = null; // table ids where it was our move at the last answer (null: no answer yet)
const pageTitle = document.title;

function render(tables) {
  root.querySelector(".your-move-summary").textContent = here ? TEXT.titleOthers(tables.length) : TEXT.title(tables.length);
  const list = root.querySelector(".your-move-list");
  list.replaceChildren(...(tables.length
    ? tables.map((row) => h("li", {}, h("a", { href: row.play }, TEXT.row(row.title, row.id))))
    : [h("li", { class: "muted" }, here ? TEXT.noneOthers : TEXT.none)]));
  document.title = document.hidden && tables.length ? TEXT.tabTitle(tables.length, pageTitle) : pageTitle;
}

function notifyNew(tables) {
  const fresh = tables.filter((row) => known !== null && !known.has(row.id));
  known = new Set(tables.map((row) => row.id));
  if (!fresh.length || !document.hidden || !("Notification" in window) || Notification.permission !== "granted") return;
  for (const row of fresh.slice(0, 3)) {
    const notice = new Notification(TEXT.notice, { body: TEXT.noticeBody(row.title), tag: `gamebag-${row.id}` });
    notice.onclick = () => { window.focus(); window.location.href = row.play; };
  }
}

async function poll() {
  try {
    const response = await fetch("/api/yourmove", {
      method: "POST", headers: await changeHeaders(), body: JSON.stringify({ seats: keptSeats().slice(-100) }),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error);
    pollSeconds = answer.poll_seconds || pollSeconds;
    root.querySelector(".your-move-status").textContent = "";
    const tables = answer.tables.filter((row) => row.id !== here);
    render(tables);
    notifyNew(tables);
  } catch (error) {
    root.querySelector(".your-move-status").textContent = TEXT.failed;
  }
  window.setTimeout(poll, pollSeconds * 1000);
}

function permissionWords() {
  if (!("Notification" in window)) return TEXT.notifyMissing;
  if (Notification.permission === "granted") return TEXT.notifyOn;
  if (Notification.permission === "denied") return TEXT.notifyDenied;
  return "";
}

function setUpButton() {
  const button = root.querySelector(".your-move-notify");
  const note = root.querySelector(".your-move-permission");
  button.textContent = TEXT.notify;
  note.textContent = permissionWords();
  button.hidden = !("Notification" in window) || Notification.permission !== "default";
  button.addEventListener("click", async () => {
    await Notification.requestPermission(); // asked only when the person presses the button
    note.textContent = permissionWords();
    button.hidden = Notification.permission !== "default";
  });
}

if (root) {
  setUpButton();
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) document.title = pageTitle; // the person is looking: no count in the title
  });
  poll();
}
