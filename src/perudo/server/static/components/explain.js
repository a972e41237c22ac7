// The live "explain" panel (issue 28, point 6): at a table where every other seat is a bot,
// the same judgement as the analysis for this seat's decision now (how likely the standing
// bid is from its dice and reading the bids as the expert does, the expert's choice and mix)
// and, once made, its last decision's loss and label. The server computes it in its analysis
// workers and refuses it at a table with another person (the page only hides the button).

import { html, useState, useEffect, tokenKey } from "../lib.js";
import { t } from "../i18n.js";
import { bidWords } from "./dice.js";
import { displayName } from "./common.js";
import { refusalText } from "../refusals.js";
import { Decision, fetchAnalysis, pct, short } from "../views/analysis.js";

// Whether the panel may be offered: a seated person and every other seat a bot.
export function explainable(tb, me) {
  return me !== null && tb.seats.every((s, i) => i === me || s === null || s.kind === "bot");
}

export function Explain({ tb, me, view }) {
  const [open, setOpen] = useState(false);
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  const moment = `${view.round}:${view.actions.length}:${view.to_act}:${view.phase}`;
  useEffect(() => {
    if (!open) return undefined;
    let stop = false;
    fetchAnalysis(`/api/tables/${tb.id}/explain`, localStorage.getItem(tokenKey(tb.id))).then(
      (body) => { if (!stop) { setData(body); setError(null); } },
      (e) => !stop && setError(refusalText(e)),
    );
    return () => { stop = true; };
  }, [open, moment]);
  const names = tb.seats.map((s, i) => (s ? s.name : `${i + 1}`));
  const cur = data && data.current;
  return html`<div class="explain" data-testid="explain">
    <button class="btn small" data-testid="explain-toggle" aria-expanded=${open} onClick=${() => setOpen(!open)}>${t("explain.toggle")}</button>
    ${open ? html`<div class="explainbox" aria-live="polite">
      <h3>${t("explain.title")}</h3>
      ${error ? html`<p data-testid="explain-error">${error}</p>` : null}
      ${data ? html`<div data-testid="explain-now"><strong>${t("explain.now")}</strong>
        ${cur ? html`
          ${cur.bid_info && cur.holds !== null && cur.holds_beliefs !== null ? html`<div class="small">${t("analysis.holds", { bid: bidWords(cur.bid_info, cur.wild), p: pct(cur.holds), q: pct(cur.holds_beliefs) })}</div>` : null}
          ${cur.expert_info ? html`<div class="small" data-testid="explain-expert">${t("analysis.expert", { action: cur.policy_info.length > 1
            ? cur.policy_info.map(([info, p]) => `${short(info, cur.wild)} ${pct(p)}`).join(", ")
            : short(cur.expert_info, cur.wild) })}</div>` : null}`
        : html`<div class="small muted">${t("explain.wait")}</div>`}</div>` : null}
      ${data && data.last ? html`<div data-testid="explain-last"><ol class="decisions"><${Decision} d=${data.last} names=${names.map(displayName)} /></ol></div>` : null}
    </div>` : null}
  </div>`;
}
