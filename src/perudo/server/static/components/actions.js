// What this seat may do now: exactly the view's `legal_info` (the core's legal actions,
// structured), never more. Raises are picked in at most two taps: each face shows its lowest
// legal quantity (one tap bids it), and the +/− steps move every face's quantity up or down
// (a step, then a face: two taps). A button sends the action's own notation text back.

import { html, useState, useEffect } from "../lib.js";
import { t } from "../i18n.js";
import { Die, bidWords, faceName } from "./dice.js";

function BigButton({ info, onAct, wild }) {
  const cls = { dudo: "btn danger big", calza: "btn teal big", palifico: "btn primary big" }[info.kind] || "btn big";
  let label;
  if (info.kind === "aside") {
    const words = t("game.set_aside", { dice: info.dice.join(" ") });
    return html`<button class="btn" data-action=${info.text} aria-label=${words} onClick=${() => onAct(info.text)}>
      <span aria-hidden="true">${t("game.set_aside", { dice: "" })}</span>${info.dice.map((d) => html`<${Die} face=${d} size="xs" wild=${wild} label=${false} />`)}
    </button>`;
  }
  label = t(`btn.${info.kind}`);
  return html`<button class=${cls} data-action=${info.text} onClick=${() => onAct(info.text)}>${label}</button>`;
}

export function Actions({ view, onAct }) {
  const [step, setStep] = useState(0);
  // A new standing bid (or a new round) starts the picker again from the lowest raises.
  useEffect(() => setStep(0), [view.bid, view.round]);
  const bids = view.legal_info.filter((a) => a.kind === "bid");
  const others = view.legal_info.filter((a) => a.kind !== "bid");
  const byFace = new Map();
  for (const b of bids) {
    if (!byFace.has(b.face)) byFace.set(b.face, new Map());
    byFace.get(b.face).set(b.quantity, b);
  }
  const faces = [...byFace.keys()].sort((a, b) => a - b);
  const lowest = (f) => Math.min(...byFace.get(f).keys());
  const highestStep = faces.length ? Math.max(...faces.map((f) => Math.max(...byFace.get(f).keys()) - lowest(f))) : 0;
  return html`<div class="actions" data-testid="actions" data-box="actions">
    ${view.phase === "choose_palifico" ? html`<div class="banner">${t("game.choose_palifico")}</div>` : null}
    ${faces.length ? html`<div class="raise" role="group" aria-label=${t("game.raise")}>
      <div class="raisehead">
        <span class="label">${t("game.raise")}</span>
        <div class="stepper">
          <button class="btn small" data-testid="step-down" aria-label=${t("game.step_down")} disabled=${step <= 0} onClick=${() => setStep(Math.max(0, step - 1))}>−</button>
          <span class="stepval" data-testid="step" aria-live="polite">+${step}</span>
          <button class="btn small" data-testid="step-up" aria-label=${t("game.step_up")} disabled=${step >= highestStep} onClick=${() => setStep(Math.min(highestStep, step + 1))}>+</button>
        </div>
      </div>
      <div class="facebtns" data-testid="bids">
        ${faces.map((f) => {
          const q = lowest(f) + step;
          const b = byFace.get(f).get(q);
          if (!b) return html`<button class="bidbtn" data-face=${f} disabled aria-label=${t("game.no_raise", { face: f })}><span class="q">–</span><${Die} face=${f} size="md" wild=${view.wild} label=${false} /></button>`;
          return html`<button class="bidbtn" data-face=${f} data-action=${b.text} aria-label=${`${b.quantity}× ${faceName(f, view.wild)}`} title=${t("game.bid_btn", { bid: bidWords(b, view.wild) })} onClick=${() => onAct(b.text)}>
            <span class="q">${b.quantity}×</span><${Die} face=${f} size="md" wild=${view.wild} label=${false} />
          </button>`;
        })}
      </div>
    </div>` : null}
    ${others.length ? html`<div class="bigactions">${others.map((a) => html`<${BigButton} key=${a.text} info=${a} onAct=${onAct} wild=${view.wild} />`)}</div>` : null}
  </div>`;
}
