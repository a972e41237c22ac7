// Refusals in the player's language. When the rules refused, the server's error carries the
// refusal already said in each language (`texts`, rendered by perudo.i18n from the core's code
// and params, seats named): the page shows its language's text and keeps no second copy of
// those words. The table's own refusals (a stale version, a full table…) are said from the
// page's words for their `code`. The rule ids (P-…) and the English developer message stay
// out of the page: the "why?" detail links to those rules in the rule book.

import { lang, t, MESSAGES } from "./i18n.js";

export function refusalText(err) {
  if (err.texts && err.texts[lang()]) return err.texts[lang()];
  const key = `error.${err.code}`;
  if (err.code && MESSAGES.en[key]) return t(key);
  return t("error.refused");
}

// The rule ids a refusal names (the "why?" detail's links into the rule book).
export function ruleIds(err) {
  return [...new Set(String(err.message || "").match(/\b[PV]-\d+\b/g) || [])];
}
