// A seat's rating change at the end of a rated game (the table message's rating_changes,
// docs/ratings.md): the new displayed rating, the change signed, "provisional" when it is.

import { html } from "../lib.js";
import { t } from "../i18n.js";

export function RatingChange({ changes, seat }) {
  const c = (changes || []).find((x) => x.seat === seat);
  if (!c) return null;
  const d = c.after - c.before;
  const delta = d > 0 ? `+${d}` : d < 0 ? `\u2212${-d}` : "\u00b10";
  return html`<span class="rating-change" data-testid=${`rating-change-${seat}`} data-delta=${d}>
    ${t("over.rating", { after: c.after, delta })}${c.provisional ? html` <abbr title=${t("over.provisional_long")}>${t("over.provisional")}</abbr>` : null}</span>`;
}
