// A finished game's analysis (/analysis/<game id>[?seat=N&table=T]): each decision judged,
// the chance of winning round by round as an inline SVG chart, the turning points and the
// calls. With ?seat and the seat's token (kept by this browser for table T) it is that seat's
// own analysis; otherwise it is built from what everybody saw (the server decides, P-70).
// The server computes it in its worker processes: the page shows the progress meanwhile.

import { html, useState, useEffect, tokenKey } from "../lib.js";
import { t } from "../i18n.js";
import { bidWords, Die } from "../components/dice.js";
import { actionWords } from "../components/felt.js";
import { displayName } from "../components/common.js";
import { refusalText } from "../refusals.js";

export const pct = (x) => `${(100 * x).toFixed(1)}%`;
// An interval's end as shown: a chance given up, from 0% to 100%.
const clip = (x) => Math.max(0, Math.min(1, x));

// An action in a word or two (a bid as spoken, dudo, calza), from its structured form.
export function short(info, wild) {
  if (info.kind === "bid") return bidWords(info, wild);
  if (info.kind === "dudo" || info.kind === "calza") return t(`word.${info.kind}`);
  return actionWords("", info, wild).trim();
}
const COLORS = ["#f2b33d", "#6fc3ff", "#ff7a7a", "#8be28b", "#c59bff", "#ffa55c", "#5ce1d6", "#e6e6e6"];

export async function fetchAnalysis(path, token) {
  const res = await fetch(path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(data.message || res.statusText);
    err.code = data.error;
    err.texts = data.texts;
    throw err;
  }
  return data;
}

function Chart({ points, names }) {
  const known = points.filter((p) => p.wins);
  if (known.length < 2) return null;
  const w = 320;
  const h = 160;
  const pad = 24;
  const x = (k) => pad + (k * (w - 2 * pad)) / (known.length - 1);
  const y = (v) => h - pad - v * (h - 2 * pad);
  const seats = known[0].wins.map((_, s) => s);
  return html`<figure class="chart" data-testid="analysis-chart">
    <svg viewBox=${`0 0 ${w} ${h}`} role="img" aria-label=${t("analysis.chart")} preserveAspectRatio="xMidYMid meet">
      <line x1=${pad} y1=${y(0)} x2=${w - pad} y2=${y(0)} stroke="#55607a" />
      <line x1=${pad} y1=${y(1)} x2=${w - pad} y2=${y(1)} stroke="#33405a" stroke-dasharray="3 3" />
      <text x="2" y=${y(1) + 4} font-size="9" fill="#a9b4cf">100%</text>
      <text x="8" y=${y(0) + 4} font-size="9" fill="#a9b4cf">0%</text>
      ${seats.map((s) => html`<polyline data-testid=${`chart-line-${s}`} fill="none" stroke=${COLORS[s % COLORS.length]} stroke-width="2"
        points=${known.map((p, k) => `${x(k).toFixed(1)},${y(p.wins[s]).toFixed(1)}`).join(" ")} />`)}
    </svg>
    <figcaption class="legend">${seats.map((s) => html`<span><span class="swatch" style=${`background:${COLORS[s % COLORS.length]}`}></span>${displayName(names[s])}</span>`)}</figcaption>
  </figure>`;
}

export function Decision({ d, names }) {
  const who = displayName(names[d.seat]);
  return html`<li class=${`decision ${d.label || ""}`} data-testid="decision">
    <div class="row"><span>${actionWords(who, d.action_info, d.wild)}</span>
      ${d.hand ? html`<span class="muted">[${d.hand.join(" ")}]</span>` : null}
      ${d.label ? html`<span class=${`pill label-${d.label}`} data-testid="decision-label">${t(`analysis.label.${d.label}`)}</span>` : null}</div>
    ${d.bid_info && d.holds !== null && d.holds_beliefs !== null
      ? html`<div class="muted small">${t("analysis.holds", { bid: bidWords(d.bid_info, d.wild), p: pct(d.holds), q: pct(d.holds_beliefs) })}</div>` : null}
    ${d.expert_info ? html`<div class="small" data-testid="expert">${t("analysis.expert", { action: d.policy_info.length > 1
      ? d.policy_info.map(([info, p]) => `${short(info, d.wild)} ${pct(p)}`).join(", ")
      : short(d.expert_info, d.wild) })}</div>` : null}
    ${d.method === "exact" && d.loss_round !== null ? html`<div class="small">${t("analysis.loss_exact", { round: pct(d.loss_round), game: pct(d.loss_game || 0) })}</div>` : null}
    ${d.method === "exact" && d.loss_round === null && d.loss_game !== null ? html`<div class="small">${t("analysis.loss_game", { game: pct(d.loss_game) })}</div>` : null}
    ${d.method === "estimate" && d.loss_round !== null && d.rollouts ? html`<div class="small" data-testid="loss-estimate">${d.loss_game != null && d.game_interval
      ? t("analysis.loss_estimate_game", { round: pct(d.loss_round), low: pct(clip(d.interval[0])), high: pct(clip(d.interval[1])), game: pct(d.loss_game), glow: pct(clip(d.game_interval[0])), ghigh: pct(clip(d.game_interval[1])), n: d.rollouts })
      : t("analysis.loss_estimate", { round: pct(d.loss_round), low: pct(clip(d.interval[0])), high: pct(clip(d.interval[1])), n: d.rollouts })}</div>` : null}
    ${d.method === "estimate" && d.loss_round !== null && !d.rollouts ? html`<div class="small muted">${t("analysis.same")}</div>` : null}
  </li>`;
}

export function AnalysisPage({ gameId }) {
  const params = new URLSearchParams(location.search);
  const seat = params.get("seat");
  const table = params.get("table");
  const token = seat !== null && table ? localStorage.getItem(tokenKey(table)) : null;
  const [data, setData] = useState(null);
  const [progress, setProgress] = useState(null);
  const [error, setError] = useState(null);
  const [names, setNames] = useState([]);
  useEffect(() => {
    let stop = false;
    let timer = null;
    const path = `/api/games/${gameId}/analysis${seat !== null && token ? `?seat=${encodeURIComponent(seat)}` : ""}`;
    fetchAnalysis(`/api/games/${gameId}/replay`, null).then((r) => !stop && setNames(r.names), () => {});
    const poll = () => fetchAnalysis(path, token).then((body) => {
      if (stop) return;
      if (body.status === "done") setData(body.analysis);
      else {
        setProgress(body);
        timer = setTimeout(poll, 400);
      }
    }, (e) => !stop && setError(refusalText(e)));
    poll();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [gameId, seat, token]);
  if (error) return html`<section class="card"><h1>${t("analysis.title")}</h1><p data-testid="analysis-error">${error}</p></section>`;
  if (!data) {
    return html`<section class="card" aria-busy="true" data-testid="analysis-progress"><h1>${t("analysis.title")}</h1>
      <p>${progress ? t("analysis.running", { done: progress.done, total: progress.total || "…" }) : "…"}</p>
      ${progress && progress.total ? html`<progress max=${progress.total} value=${progress.done}></progress>` : null}</section>`;
  }
  const seatNames = data.seats.length && names.length ? names : Array.from({ length: data.players }, (_, s) => `${s + 1}`);
  const who = (s) => displayName(seatNames[s]);
  const rounds = [];
  for (const d of data.decisions) {
    if (!rounds.length || rounds[rounds.length - 1].round !== d.round) rounds.push({ round: d.round, items: [] });
    rounds[rounds.length - 1].items.push(d);
  }
  return html`<div class="analysis" data-testid="analysis">
    <section class="card"><h1>${t("analysis.title")} #${gameId}</h1>
      <p class="muted">${data.viewer === null ? t("analysis.public") : t("analysis.own", { who: who(data.viewer) })}</p>
      <ul class="accuracy">${Object.entries(data.accuracy).map(([s, a]) => a === null ? null
        : html`<li data-testid="accuracy">${t("analysis.accuracy", { who: who(Number(s)), value: a.toFixed(0) })}</li>`)}</ul></section>
    <section class="card"><h2>${t("analysis.chart")}</h2><${Chart} points=${data.chart} names=${seatNames} /></section>
    <section class="card"><h2>${t("analysis.moments")}</h2><ul>${data.moments.map((m) => html`<li data-testid="moment">${t("analysis.moment", { round: m.round, who: who(m.seat), before: pct(m.before), after: pct(m.after) })}</li>`)}</ul></section>
    <section class="card"><h2>${t("analysis.calls")}</h2><ul>${data.calls.map((c) => html`<li data-testid="call">${t(c.worked ? "analysis.call_worked" : "analysis.call_failed", { round: c.round, who: who(c.caller), bid: c.bid_info ? bidWords(c.bid_info, c.wild) : "" })}
      ${c.hands ? html`<div class="small" data-testid="call-true-count">${t("analysis.true_count", { count: c.true_count, q: c.bid_info.quantity })}</div>
        <ul class="everyhand" aria-label=${t("analysis.every_hand", { round: c.round })}>${c.hands.map((h, s) => h.length ? html`<li><span>${who(s)}</span>
          <span class="dice">${h.map((f) => html`<${Die} face=${f} wild=${c.wild} />`)}</span></li>` : null)}</ul>` : null}</li>`)}</ul></section>
    ${rounds.map((r) => html`<section class="card"><h2>${t("game.round", { n: r.round })}</h2>
      <ol class="decisions">${r.items.map((d) => html`<${Decision} d=${d} names=${seatNames} />`)}</ol></section>`)}
  </div>`;
}
