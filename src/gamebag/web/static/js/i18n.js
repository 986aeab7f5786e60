// The page's words: the translations of /i18n/<language>.js (window.GB_I18N), made from the same
// catalogues as the server's words. A script takes its domain's functions once:
//   import { _, ngettext } from "/static/js/i18n.js";                 // the "web" domain
//   const { _, ngettext } = catalogue("eigen_kweek");                   // a game's own words
// and writes _("Roll {count} dice", {count: 3}) or ngettext("{n} coin", "{n} coins", n): the text
// inside _() and ngettext() is what scripts/i18n.py extracts, so it must be a plain string literal.

// (No window: a renderer run under node by the tests, in English.)
const data = (typeof window !== "undefined" && window.GB_I18N)
  || { language: "en", tag: "en", domains: {}, plural: (n) => +(n !== 1) };

/** The reader's language (a catalogue code: "nl", "zh_Hans") and its BCP 47 tag ("zh-Hans"). */
export const language = data.language;
export const languageTag = data.tag;

function fill(text, params) {
  return text.replace(/\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (match, name) => {
    if (match === "{{") return "{";
    if (match === "}}") return "}";
    return params && name in params ? String(params[name]) : match;
  });
}

/** The translation functions of one domain ("web", or a game's package name). */
export function catalogue(domain) {
  const messages = data.domains[domain] || {};
  const translate = (message, params) => {
    const text = messages[message];
    return fill(typeof text === "string" && text ? text : message, params);
  };
  const plural = (singular, pluralText, n, params) => {
    const forms = messages[singular];
    let text = n === 1 ? singular : pluralText;
    if (Array.isArray(forms) && forms.length) {
      const chosen = forms[Math.min(data.plural(n), forms.length - 1)];
      if (chosen) text = chosen;
    }
    return fill(text, { n: formatNumber(n), ...(params || {}) });
  };
  return { _: translate, ngettext: plural };
}

export const { _, ngettext } = catalogue("web");

/** A number as the reader writes it: 12,345 / 12.345 / 12 345. */
export function formatNumber(value, options) {
  return new Intl.NumberFormat(languageTag, options).format(value);
}

/** A fraction (0.25) as the reader writes a percentage: 25% / 25 %. */
export function formatPercent(fraction, digits = 0) {
  return new Intl.NumberFormat(languageTag, {
    style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits,
  }).format(fraction);
}

/** Items as the reader's language lists them: "A, B and C" / "A, B en C" / "A、B、C". */
export function formatList(items, type = "conjunction") {
  const words = items.map(String);
  if (language === "en_XA" && words.length > 1) {
    // The pseudo-locale has no list rules of its own: its "and" comes from the catalogue.
    const parts = { items: words.slice(0, -1).join(", "), last: words[words.length - 1] };
    return type === "disjunction" ? _("{items} or {last}", parts) : _("{items} and {last}", parts);
  }
  // gamebag's English writes "A, B and C" (as the server's lists do): British English's list rules.
  return new Intl.ListFormat(languageTag === "en" ? "en-GB" : languageTag, { style: "long", type }).format(words);
}

/** A date and time in the reader's way of writing them. */
export function formatDate(date, options = { dateStyle: "medium", timeStyle: "short" }) {
  return new Intl.DateTimeFormat(languageTag, options).format(date);
}
