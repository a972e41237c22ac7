// What this seat may do now: exactly the view's `legal` (the core's legal actions: the bids as
// [face, lowest, highest] runs of quantities, the other actions structured), never more; the
// page derives no rule. Raises are picked in at most two taps: each face shows its lowest
// legal quantity (one tap bids it), and the +/− steps move every face's quantity up or down
// (a step, then a face: two taps). A button sends the action's notation back (a bid's is
// `{quantity}x{face}`, the core's).

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

// Whether the view offers its seat anything to do.
export const canAct = (view) => view.legal.bids.length > 0 || view.legal.actions.length > 0;

// The bid `quantity × face` if the view offers it (structured as the core's other actions are).
function offered(runs, face, quantity) {
  const ok = runs.some(([f, low, high]) => f === face && low <= quantity && quantity <= high);
  return ok ? { kind: "bid", text: `${quantity}x${face}`, quantity, face } : null;
}

export function Actions({ view, onAct }) {
  const [step, setStep] = useState(0);
  // A new standing bid (or a new round) starts the picker again from the lowest raises.
  useEffect(() => setStep(0), [view.bid, view.round]);
  const runs = view.legal.bids;
  const others = view.legal.actions;
  const faces = [...new Set(runs.map(([f]) => f))].sort((a, b) => a - b);
  const lowest = (f) => Math.min(...runs.filter(([g]) => g === f).map(([, low]) => low));
  const highest = (f) => Math.max(...runs.filter(([g]) => g === f).map(([, , high]) => high));
  const highestStep = faces.length ? Math.max(...faces.map((f) => highest(f) - lowest(f))) : 0;
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
          const b = offered(runs, f, q);
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
