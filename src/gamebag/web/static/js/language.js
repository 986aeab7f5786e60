// The language switcher (templates/_language.html). The choice is remembered on this device by the
// cookie the /language route sets; the page then comes back in the chosen language, at the same
// address, its #fragment included (a host page's key, a seat's link live there and never reach the
// server). A pointer's choice takes effect at once; with the keyboard the arrows only move through
// the languages (nothing reloads under the reader's fingers) and Enter or the button confirms.
const form = document.querySelector("form.language-switch");

/** This page's address without a ``lang`` in its query (it would override the choice). */
function pageAddress() {
  const query = new URLSearchParams(window.location.search);
  query.delete("lang");
  const search = query.toString();
  return `${window.location.pathname}${search ? `?${search}` : ""}`;
}

async function choose(event) {
  if (event) event.preventDefault();
  const lang = form.querySelector("select").value;
  const back = pageAddress();
  try {
    const response = await fetch(`${form.action}?${new URLSearchParams({ lang, next: back })}`, {
      credentials: "same-origin", redirect: "manual",
    });
    if (response.type !== "opaqueredirect" && !response.ok) throw new Error(String(response.status));
  } catch (error) {
    // No script-made request: the plain form does the same, without the fragment.
    form.submit();
    return;
  }
  const target = `${back}${window.location.hash}`;
  if (`${back}` === `${window.location.pathname}${window.location.search}`) window.location.reload();
  else window.location.replace(target);
}

if (form) {
  const choice = form.querySelector("select");
  const back = form.querySelector("input[name=next]");
  if (back) back.value = pageAddress(); // the form without scripts' way back
  let pointer = false;
  choice.addEventListener("pointerdown", () => { pointer = true; });
  choice.addEventListener("keydown", (event) => {
    pointer = false;
    if (event.key === "Enter") choose(event);
  });
  choice.addEventListener("change", () => { if (pointer) choose(null); });
  form.addEventListener("submit", choose);
}
