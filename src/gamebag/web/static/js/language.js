// The language switcher (templates/_language.html): a choice takes effect at once; the form's
// button stays for keyboards and pages without scripts.
const form = document.querySelector("form.language-switch");
if (form) {
  const choice = form.querySelector("select");
  const button = form.querySelector("button");
  const back = form.querySelector("input[name=next]");
  if (back) back.value = location.pathname + location.search;  // back to this page after the choice
  if (button) button.hidden = true;
  choice.addEventListener("change", () => form.submit());
}
