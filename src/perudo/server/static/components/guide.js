// A short first-game guide on the table, until the player dismisses it (remembered in this
// browser). It names the round's wild face from the view.

import { html, useState } from "../lib.js";
import { lang, t } from "../i18n.js";
import { faceName } from "./dice.js";

const KEY = "perudo.guide.dismissed";

export function Guide({ view, seat }) {
  const [hidden, setHidden] = useState(localStorage.getItem(KEY) === "1");
  if (hidden || seat === null) return null;
  const dismiss = () => {
    localStorage.setItem(KEY, "1");
    setHidden(true);
  };
  return html`<section class="card guide" data-testid="guide" data-box="guide" aria-labelledby="guide-title">
    <h2 id="guide-title">${t("guide.title")}</h2>
    <ol>
      <li>${t("guide.hidden")}</li>
      <li>${t("guide.bid")}</li>
      <li>${view.wild !== null ? t("guide.wild", { face: faceName(view.wild, null) }) : t("guide.no_wild")}</li>
      <li>${t("guide.dudo")}</li>
      <li>${t("guide.win")}</li>
    </ol>
    <div class="row"><a href=${`/rules/${lang()}`} target="_blank" rel="noopener">${t("guide.rules")}</a><span class="spacer"></span>
      <button class="btn small" data-testid="guide-dismiss" onClick=${dismiss}>${t("guide.dismiss")}</button></div>
  </section>`;
}
