// The account page: sign up, sign in (password, passkey or recovery code), and the profile:
// rename, password, passkeys, seats, export, delete, sign out. An account is always optional.
import { h } from "./common.js";
import { _, formatDate, formatNumber } from "./i18n.js";

const TEXT = {
  get signedUp() { return _("Your account is ready; save your recovery codes below."); },
  get signedIn() { return _("You are signed in."); },
  get signedOut() { return _("You are signed out."); },
  get renamed() { return _("Your name is changed."); },
  get passwordSet() { return _("Your password is set."); },
  get passkeyAdded() { return _("Your passkey is added."); },
  get deleted() { return _("Your account and its personal data are deleted."); },
  get noPasskeys() { return _("This browser cannot use passkeys; use a password instead."); },
  get passkeyCancelled() { return _("The passkey was not used; nothing changed."); },
  get noSeats() { return _("No seats yet: open an invite link while signed in and the seat is yours."); },
  get facts() { return _("Password: {password} · passkeys: {passkeys} · recovery codes left: {codes}"); },
  get yes() { return _("yes"); },
  get no() { return _("no"); },
  get seat() { return _("{game}, seat {seat} ({name}) · {state}"); },
  get finished() { return _("finished"); },
  get playing() { return _("in play"); },
  get closed() { return _("closed"); },
  get failed() { return _("The server answered {status}."); },
  get guestSeats() { return _("Seats this device played as a guest that your account does not hold yet: {count}."); },
  get adopted() { return _("The seats this device played are in your account now."); },
  get newCodes() { return _("Your new recovery codes are below; the old ones no longer work."); },
  get needPassword() { return _("Type a password, or create the account with a passkey instead."); },
  get noPasskeyList() { return _("No passkeys yet."); },
  get passkeyItem() { return _("Passkey added on {date} ({id}…)"); },
  get removePasskey() { return _("Remove"); },
  get removeLabel() { return _("Remove the passkey added on {date}"); },
  get passkeyRemoved() { return _("The passkey is removed; it signs nobody in any more."); },
};

const $ = (id) => document.getElementById(id);
let csrf = null;

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (match, key) => String(values[key]));
}

function say(text) {
  $("account-error").textContent = "";
  $("account-status").textContent = text;
}

function fail(error) {
  $("account-status").textContent = "";
  $("account-error").textContent = error.message || String(error);
}

async function call(method, url, body) {
  const headers = { "content-type": "application/json" };
  if (csrf) headers["x-csrf-token"] = csrf;
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.error || fill(TEXT.failed, { status: response.status }));
  return answer;
}

const post = (url, body) => call("POST", url, body ?? {});

function showCodes(codes) {
  $("codes").replaceChildren(...codes.map((code) => h("li", {}, code)));
  $("codes-panel").hidden = false;
}

/** Seats this device holds (kept in localStorage when their invites were opened) that the account
 * does not: a guest who signs up afterwards moves them in by their tokens. */
function deviceSeats(owned) {
  const known = new Set(owned.map((seat) => seat.token).filter(Boolean));
  const found = [];
  for (let i = 0; i < window.localStorage.length; i += 1) {
    const key = window.localStorage.key(i);
    if (!key || !key.startsWith("gamebag-seat:")) continue;
    const token = window.localStorage.getItem(key);
    if (token && !known.has(token)) found.push({ table: key.slice("gamebag-seat:".length), token });
  }
  return found;
}

async function renderSeats() {
  const { seats } = await call("GET", "/api/me/seats");
  const items = seats.map((seat) => {
    const state = seat.closed ? TEXT.closed : seat.finished ? TEXT.finished : TEXT.playing;
    const words = fill(TEXT.seat, { game: seat.game, seat: seat.seat + 1, name: seat.name, state });
    return h("li", {}, h("a", { href: seat.play }, words));
  });
  $("seat-list").replaceChildren(...(items.length ? items : [h("li", { class: "muted" }, TEXT.noSeats)]));
  const guestSeats = deviceSeats(seats);
  $("guest-seats").hidden = !guestSeats.length;
  $("guest-seats-note").textContent = fill(TEXT.guestSeats, { count: guestSeats.length });
}

async function renderPasskeys() {
  const { passkeys } = await call("GET", "/api/me/passkeys");
  const items = passkeys.map((passkey) => {
    const date = formatDate(new Date(passkey.created_at * 1000));
    const remove = h("button", { type: "button", "aria-label": fill(TEXT.removeLabel, { date }) }, TEXT.removePasskey);
    remove.addEventListener("click", action(() => post("/api/me/passkeys/remove", { id: passkey.id }), TEXT.passkeyRemoved));
    return h("li", { class: "row" }, h("span", {}, fill(TEXT.passkeyItem, { date, id: passkey.id.slice(0, 8) })), remove);
  });
  $("passkey-list").replaceChildren(...(items.length ? items : [h("li", { class: "muted" }, TEXT.noPasskeyList)]));
}

async function render() {
  const me = await call("GET", "/api/me");
  csrf = me.csrf;
  const account = me.account;
  $("guest-view").hidden = Boolean(account);
  $("profile-view").hidden = !account;
  if (!account) return;
  $("profile-name").textContent = account.name;
  $("profile-facts").textContent = fill(TEXT.facts, {
    password: account.has_password ? TEXT.yes : TEXT.no, passkeys: formatNumber(account.passkeys), codes: formatNumber(account.recovery_codes_left),
  });
  await Promise.all([renderSeats(), renderPasskeys()]);
}

function passkeysWork() {
  return Boolean(window.PublicKeyCredential && PublicKeyCredential.parseCreationOptionsFromJSON);
}

async function addPasskey() {
  if (!passkeysWork()) throw new Error(TEXT.noPasskeys);
  const begin = await post("/api/me/passkeys/options");
  let credential;
  try {
    credential = await navigator.credentials.create({
      publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(begin.options),
    });
  } catch (error) {
    throw new Error(TEXT.passkeyCancelled);
  }
  await post("/api/me/passkeys", { challenge_id: begin.challenge_id, credential: credential.toJSON() });
}

async function passkeySignIn() {
  if (!passkeysWork()) throw new Error(TEXT.noPasskeys);
  const begin = await post("/api/account/passkey/options");
  let credential;
  try {
    credential = await navigator.credentials.get({
      publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(begin.options),
    });
  } catch (error) {
    throw new Error(TEXT.passkeyCancelled);
  }
  return post("/api/account/passkey", { challenge_id: begin.challenge_id, credential: credential.toJSON() });
}

/** Run ``work`` for a form or button: its answer's CSRF token is kept, the page redrawn, ``done`` said. */
function action(work, done) {
  return async (event) => {
    event?.preventDefault();
    try {
      const answer = await work();
      if (answer && "csrf" in answer) csrf = answer.csrf;
      await render();
      say(done);
    } catch (error) {
      fail(error);
    }
  };
}

const value = (id) => $(id).value;

$("sign-in-form").addEventListener("submit", action(
  () => post("/api/account/signin", { name: value("sign-in-name"), password: value("sign-in-password") }),
  TEXT.signedIn,
));
$("passkey-sign-in").addEventListener("click", action(passkeySignIn, TEXT.signedIn));
$("sign-up-form").addEventListener("submit", action(async () => {
  if (!value("sign-up-password")) throw new Error(TEXT.needPassword);
  const answer = await post("/api/account/signup", { name: value("sign-up-name"), password: value("sign-up-password") });
  showCodes(answer.recovery_codes);
  return answer;
}, TEXT.signedUp));
$("passkey-sign-up").addEventListener("click", action(async () => {
  const answer = await post("/api/account/signup", { name: value("sign-up-name") });
  csrf = answer.csrf;
  showCodes(answer.recovery_codes);
  await addPasskey();
  return answer;
}, TEXT.signedUp));
$("recover-form").addEventListener("submit", action(
  () => post("/api/account/recover", { name: value("recover-name"), code: value("recover-code") }),
  TEXT.signedIn,
));
$("sign-out").addEventListener("click", action(() => post("/api/account/signout"), TEXT.signedOut));
$("rename-form").addEventListener("submit", action(() => post("/api/me/name", { name: value("new-name") }), TEXT.renamed));
$("password-form").addEventListener("submit", action(
  () => post("/api/me/password", { password: value("new-password") }),
  TEXT.passwordSet,
));
$("add-passkey").addEventListener("click", action(addPasskey, TEXT.passkeyAdded));
$("adopt-seats").addEventListener("click", action(async () => {
  const { seats } = await call("GET", "/api/me/seats");
  for (const seat of deviceSeats(seats)) {
    // A seat that is no longer this device's (re-issued) or another account's is left as it is.
    await post("/api/me/seats/adopt", seat).catch(() => null);
  }
}, TEXT.adopted));
$("new-codes").addEventListener("click", action(async () => {
  showCodes((await post("/api/me/recovery-codes")).recovery_codes);
}, TEXT.newCodes));
$("delete-form").addEventListener("submit", action(async () => {
  await post("/api/me/delete", { name: value("delete-name") });
  csrf = null;
  $("codes-panel").hidden = true;
}, TEXT.deleted));

render().catch(fail);
