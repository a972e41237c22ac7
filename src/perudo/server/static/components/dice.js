// Dice, drawn with pips, each with a spoken name ("five"; "one, wild") for screen readers.
// The wild face is the view's `wild` (the core's rules say which face it is, V-2). The spoken
// words (say.*) are perudo.i18n's, the terminal's catalogs (see i18n.js).

import { html } from "../lib.js";
import { t } from "../i18n.js";

const PIPS = { 1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

export function faceName(face, wild) {
  const name = t(`say.face.${face}`) === `say.face.${face}` ? String(face) : t(`say.face.${face}`);
  return face === wild ? t("say.wild", { face: name }) : name;
}

export function Die({ face, size = "sm", wild = null, label = true }) {
  const spoken = faceName(face, wild);
  const cls = `die ${size} ${face === wild ? "wild" : ""}`;
  const aria = label ? { role: "img", "aria-label": spoken } : { "aria-hidden": "true" };
  if (!PIPS[face]) {
    return html`<span class="${cls} num" data-face=${face} title=${spoken} ...${aria}>${face}</span>`;
  }
  const cells = [];
  for (let i = 0; i < 9; i++) cells.push(PIPS[face].includes(i) ? html`<i></i>` : html`<span></span>`);
  return html`<span class=${cls} data-face=${face} title=${spoken} ...${aria}>${cells}</span>`;
}

export function HiddenDie({ size = "sm", label = false }) {
  const aria = label ? { role: "img", "aria-label": t("die.hidden") } : { "aria-hidden": "true" };
  return html`<span class="die hidden ${size}" ...${aria}></span>`;
}

// "3 × [five]": a bid from the view's structured action (never parsed from its notation).
export function BidText({ info, size = "xs", wild = null }) {
  if (!info || info.kind !== "bid") return null;
  return html`<span class="bidtext"><span class="sr-only">${bidWords(info, wild)}</span>
    <span aria-hidden="true">${info.quantity} ×</span><${Die} face=${info.face} size=${size} wild=${wild} label=${false} />
  </span>`;
}

// A bid in words: "three fives", "5이(가) 3개"…
export function bidWords(info, wild) {
  const plural = t(`say.faces.${info.face}`);
  const faces = plural === `say.faces.${info.face}` ? String(info.face) : plural;
  return t(info.quantity === 1 ? "say.bid_one" : "say.bid", { q: info.quantity, face: faceName(info.face, wild), faces: info.face === wild ? t("say.wild", { face: faces }) : faces });
}
