// A finished game, move by move, from its record (the server folds it through the core and
// sends every frame's public view and events).

import { html, useState, useEffect, api } from "../lib.js";
import { t } from "../i18n.js";
import { Felt, RoundLog, ActionLine } from "../components/felt.js";
import { Die } from "../components/dice.js";
import { displayName } from "../components/common.js";
import { refusalText } from "../refusals.js";

export function ReplayPage({ gameId }) {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  const [i, setI] = useState(0);
  const [playing, setPlaying] = useState(false);
  useEffect(() => {
    api("GET", `/api/games/${gameId}/replay`).then(setData, (e) => setError(refusalText(e)));
  }, [gameId]);
  const total = data ? data.frames.length - 1 : 0;
  useEffect(() => {
    if (!playing) return undefined;
    const id = setInterval(() => setI((k) => {
      if (k >= total) {
        setPlaying(false);
        return k;
      }
      return k + 1;
    }), 900);
    return () => clearInterval(id);
  }, [playing, total]);
  if (error) return html`<section class="card"><h1>${t("replay.title")}</h1><p>${error}</p></section>`;
  if (!data) return html`<div class="card muted" aria-busy="true">…</div>`;
  const go = (k) => setI(Math.max(0, Math.min(total, k)));
  const frame = data.frames[i];
  const names = data.names;
  const view = frame.view;
  const move = frame.move;
  let moveEl;
  if (!move) moveEl = t("replay.start");
  else if (move.seat === null) moveEl = move.action === "deal" ? t("replay.deal") : t("replay.reroll");
  else moveEl = html`<${ActionLine} name=${displayName(names[move.seat])} info=${move.action_info} wild=${view.wild} />`;
  const resolved = frame.events.find((e) => e.type === "round_resolved");
  const before = i > 0 ? data.frames[i - 1].view : view;
  const reveal = resolved ? { ...resolved, round: before.round, wild: before.wild } : null;
  // The table agreed to show every hand at the end: this frame's round, every seat's dice.
  const shownRound = data.hands ? data.hands.find((h) => h.round === before.round) : null;
  return html`<div class="tablepage replay">
    <div class="tablehead" data-box="head"><h1>${t("replay.title")} #${data.game_id}</h1>
      ${data.winner !== null ? html`<span class="pill gold">${t("lobby.won", { name: displayName(names[data.winner]) })}</span>` : null}
      <a class="btn small" href=${`/analysis/${gameId}`} data-link data-testid="analysis-link">${t("analysis.link")}</a></div>
    <div class="tablegrid">
      <div class="main">
        <section class="card replaybar" data-box="replaybar" aria-label=${t("replay.title")}>
          <div class="row">
            <button class="btn" onClick=${() => go(0)} aria-label=${t("replay.start")}>|◀</button>
            <button class="btn" onClick=${() => go(i - 1)} data-testid="replay-prev" aria-label=${t("replay.prev")}>◀</button>
            <button class="btn primary" onClick=${() => setPlaying(!playing)} data-testid="replay-play">${playing ? t("replay.pause") : t("replay.play")}</button>
            <button class="btn" onClick=${() => go(i + 1)} data-testid="replay-next" aria-label=${t("replay.next")}>▶</button>
            <button class="btn" onClick=${() => go(total)} data-testid="replay-end" aria-label=${t("replay.end")}>▶|</button>
          </div>
          <input type="range" min="0" max=${total} value=${i} data-testid="replay-slider" aria-label=${t("replay.move", { n: i, total })} onInput=${(e) => go(Number(e.currentTarget.value))} />
          <span class="muted" data-testid="replay-pos">${t("replay.move", { n: i, total })}</span>
          <div class="movebox" data-testid="replay-move" aria-live="polite">${moveEl}</div>
        </section>
        <div class="game"><${Felt} view=${view} names=${names} me=${null} table=${null} reveal=${reveal} bots=${data.bots || []} /></div>
      </div>
      <aside class="side"><section class="card" data-box="log"><h2>${t("game.this_round")}</h2><${RoundLog} view=${view} names=${names} /></section>
        ${shownRound ? html`<section class="card" data-testid="every-hand"><h2>${t("replay.every_hand", { round: shownRound.round })}</h2>
          <ul class="everyhand">${shownRound.hands.map((h, s) => h.length ? html`<li data-testid="every-hand-seat"><span>${displayName(names[s])}</span>
            <span class="dice">${h.map((f) => html`<${Die} face=${f} wild=${before.wild} />`)}</span></li>` : null)}</ul></section>` : null}
        ${data.hands ? html`<a class="btn small" href=${`/api/games/${gameId}/record`} download=${`perudo-${gameId}.json`} data-testid="record-link">${t("replay.record")}</a>` : null}</aside>
    </div>
  </div>`;
}
