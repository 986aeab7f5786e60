// The account page's "E-mail notices" panel: the address (confirmed by a mailed link first),
// per move or a digest, quiet hours in the person's time zone. Says so when the server has no mail.
import { changeHeaders, session } from "./common.js";
import { _ } from "./i18n.js";

// Everything this panel says (whole sentences, for the translation catalogues).
const TEXT = {
  get unavailable() { return _("E-mail is not available on this server: its operator has not set up a mail server."); },
  get none() { return _("Give an address to get an e-mail when a table waits for your move and you are away."); },
  pending: (address) => _("A confirmation link was sent to {address}; open it to start the e-mails.", { address }),
  active: (address) => _("Notices go to {address}.", { address }),
  get saved() { return _("The settings are saved."); },
  get stopped() { return _("No more e-mails: the address is forgotten."); },
  failed: (why) => _("That did not work: {why}", { why }),
};

const $ = (id) => document.getElementById(id);
const panel = $("notice-panel");

function show(settings) {
  const state = $("notice-state");
  $("notice-address-form").hidden = !settings.available;
  $("notice-settings-form").hidden = !settings.available || !settings.address;
  $("notice-stop").hidden = !settings.address;
  if (!settings.available) state.textContent = TEXT.unavailable;
  else if (!settings.address) state.textContent = TEXT.none;
  else state.textContent = settings.confirmed ? TEXT.active(settings.address) : TEXT.pending(settings.address);
  if (settings.address) $("notice-address").value = settings.address;
  $("notice-mode").value = settings.mode;
  $("notice-hours").value = settings.digest_hours;
  $("notice-quiet-start").value = settings.quiet_start ?? "";
  $("notice-quiet-end").value = settings.quiet_end ?? "";
  $("notice-zone").value = settings.time_zone === "UTC" && !settings.address
    ? Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC" : settings.time_zone;
}

async function load() {
  const response = await fetch("/api/notices/email");
  if (!response.ok) return; // a guest: the panel is in the signed-in view only
  show(await response.json());
}

async function post(path, body, done) {
  $("notice-error").textContent = "";
  const response = await fetch(path, { method: "POST", headers: await changeHeaders(), body: JSON.stringify(body) });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    $("notice-error").textContent = TEXT.failed(answer.error || response.status);
    return;
  }
  await load();
  if (done) $("notice-state").textContent = done;
}

const hour = (value) => (value === "" ? null : Number(value));

if (panel) {
  $("notice-address-form").addEventListener("submit", (event) => {
    event.preventDefault();
    post("/api/notices/email", { address: $("notice-address").value.trim() });
  });
  $("notice-stop").addEventListener("click", () => post("/api/notices/email", { address: null }, TEXT.stopped));
  $("notice-settings-form").addEventListener("submit", (event) => {
    event.preventDefault();
    post("/api/notices/settings", {
      mode: $("notice-mode").value,
      digest_hours: Number($("notice-hours").value),
      quiet_start: hour($("notice-quiet-start").value),
      quiet_end: hour($("notice-quiet-end").value),
      time_zone: $("notice-zone").value.trim(),
    }, TEXT.saved);
  });
  session().then(({ account }) => account && load());
  // Signing in or up on this page shows the profile view without a reload: read the settings then.
  const view = document.getElementById("profile-view");
  new MutationObserver(() => { if (!view.hidden) load(); }).observe(view, { attributes: true, attributeFilter: ["hidden"] });
}
