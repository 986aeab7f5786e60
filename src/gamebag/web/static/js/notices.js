// The links mailed for notices: #confirm=<code> (the double opt-in) and #unsubscribe=<token> (one
// click on this page; mail programs use the List-Unsubscribe-Post header instead). The code stays
// after "#", so it never reaches the server's access log; the page posts it without the session
// cookie, since the link alone is the proof.

// Everything this page says (whole sentences, for the translation catalogues).
const TEXT = {
  get confirmWhat() { return _("Confirm that you want \"your move\" e-mails at this address."); },
  get confirm() { return _("Confirm my address"); },
  get confirmed() { return _("Your address is confirmed: the e-mails start with your next move."); },
  get unsubscribeWhat() { return _("Stop every \"your move\" e-mail to this address."); },
  get unsubscribe() { return _("Stop these e-mails"); },
  get unsubscribed() { return _("Done: no more e-mails go to this address, and the server has forgotten it."); },
  get nothing() { return _("This page is opened from a link in a gamebag e-mail."); },
  failed: (why) => _("That did not work: {why}", { why }),
};

const what = document.getElementById("notices-what");
const button = document.getElementById("notices-act");
const result = document.getElementById("notices-result");
const found = /^#(confirm|unsubscribe)=([A-Za-z0-9_%-]+)$/.exec(window.location.hash);

async function act(path, body, done) {
  button.disabled = true;
  const response = await fetch(path, {
    method: "POST", credentials: "omit", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  result.textContent = response.ok ? done : TEXT.failed(answer.error || response.status);
  button.hidden = response.ok;
  button.disabled = false;
}

if (!found) {
  what.textContent = TEXT.nothing;
} else {
  const [, kind, value] = found;
  const secret = decodeURIComponent(value);
  const confirming = kind === "confirm";
  what.textContent = confirming ? TEXT.confirmWhat : TEXT.unsubscribeWhat;
  button.textContent = confirming ? TEXT.confirm : TEXT.unsubscribe;
  button.hidden = false;
  button.addEventListener("click", () => (confirming
    ? act("/api/notices/confirm", { code: secret }, TEXT.confirmed)
    : act("/api/notices/unsubscribe", { token: secret }, TEXT.unsubscribed)));
}
