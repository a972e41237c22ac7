// Refusals in the player's language. The server's error carries the refusal's `code` and
// `params` (the core's IllegalActionError / NotationError, or the table's own refusal); the
// words come from the server's catalogue (perudo.i18n, served at /api/refusals/{lang}), so the
// page keeps no second copy of them. Seat numbers in params are shown as names. The rule ids
// (P-…) stay out of the text; the "why?" detail carries them.

import { lang } from "./i18n.js";

const catalogues = {}; // lang -> {code: template} (or a promise while loading)

export async function loadRefusals(l = lang()) {
  if (catalogues[l] && !(catalogues[l] instanceof Promise)) return catalogues[l];
  if (!catalogues[l]) {
    catalogues[l] = fetch(`/api/refusals/${l}`)
      .then((r) => (r.ok ? r.json() : { templates: {} }))
      .then((d) => (catalogues[l] = d.templates || {}))
      .catch(() => (catalogues[l] = {}));
  }
  return catalogues[l];
}

function fill(template, params, nameOf) {
  return template.replace(/\{(\w+)(?:![rs])?(?::[^}]*)?\}/g, (m, key) => {
    if (!(key in params)) return m;
    const v = params[key];
    if ((key === "seat" || key.endsWith("_seat") || key === "bidder" || key === "caller") && nameOf && Number.isInteger(v)) return nameOf(v);
    return Array.isArray(v) ? v.join(", ") : String(v);
  });
}

// The refusal `err` ({code, params, message}) in the page's language; the server's own
// (English, developer) message only when the catalogue has no words for the code.
export function refusalText(err, nameOf = null) {
  const table = catalogues[lang()];
  const tpl = table && !(table instanceof Promise) ? table[err.code] : undefined;
  if (tpl) return fill(tpl, err.params || {}, nameOf);
  return stripRuleIds(err.message || String(err));
}

export function stripRuleIds(text) {
  return String(text).replace(/\s*\((?:[PV]-\d+(?:[,/ ]+)?)+\)/g, "").replace(/\s*\b[PV]-\d+\b:?/g, "");
}

// The rule ids a refusal names (for the "why?" detail).
export function ruleIds(err) {
  return [...new Set(String(err.message || "").match(/\b[PV]-\d+\b/g) || [])];
}
