// The table itself, shared by the live table and the replay: every seat (name, dice or cup,
// last action, status), and the middle (round, standing bid, or the reveal of the round just
// ended, inline).

import { html } from "../lib.js";
import { sentence, t } from "../i18n.js";
import { Die, HiddenDie, BidText, bidWords, faceName } from "./dice.js";
import { Avatar, Icon, Name, isBotName, seatName } from "./common.js";

// What a seat did, in words, from the view's structured action (never from its notation).
export function actionWords(name, info, wild) {
  switch (info.kind) {
    case "bid":
      return t("act.bid", { name, bid: bidWords(info, wild) });
    case "dudo":
    case "calza":
    case "pass":
    case "palifico":
    case "normal":
      return t(`act.${info.kind}`, { name });
    case "aside":
      return t("act.aside", { name, dice: info.dice.map((d) => faceName(d, wild)).join(", ") });
    default:
      return `${name}: ${info.text}`;
  }
}

export function ActionLine({ name, info, wild }) {
  if (info.kind === "bid") {
    return html`<span><span class="sr-only">${actionWords(name, info, wild)}</span><span aria-hidden="true">${t("act.bid", { name, bid: "" })}<${BidText} info=${info} wild=${wild} /></span></span>`;
  }
  if (info.kind === "aside") {
    return html`<span><span class="sr-only">${actionWords(name, info, wild)}</span><span aria-hidden="true">${t("act.aside", { name, dice: "" })}${info.dice.map((d) => html`<${Die} face=${d} size="xs" wild=${wild} label=${false} />`)}</span></span>`;
  }
  return html`<span>${actionWords(name, info, wild)}</span>`;
}

function Bubble({ info, wild }) {
  if (!info) return null;
  if (info.kind === "dudo") return html`<span class="bubble dudo">${t("word.label.dudo")}!</span>`;
  if (info.kind === "calza") return html`<span class="bubble calza">${t("word.label.calza")}!</span>`;
  if (info.kind === "bid") return html`<span class="bubble"><${BidText} info=${info} wild=${wild} /></span>`;
  if (info.kind === "pass") return html`<span class="bubble">${t("btn.pass")}</span>`;
  if (info.kind === "aside") return html`<span class="bubble">${info.dice.map((d) => html`<${Die} face=${d} size="xs" wild=${wild} />`)}</span>`;
  return html`<span class="bubble">${t(`btn.${info.kind}`)}</span>`;
}

function Seat({ view, i, table, names, me, last, reveal, bots }) {
  const count = view.dice_counts[i];
  const info = table && table.seats ? table.seats[i] : null;
  // A bot account's seat (docs/bot-api.md): from the table's seats, or a replay's ``bots``.
  const botAccount = info ? !!info.bot_account : !!(bots && bots.includes(i));
  const out = count === 0;
  const name = seatName(table, names, i);
  const shown = (view.shown && view.shown[i]) || [];
  // While the last round's result is on the table, each seat shows the hand it revealed
  // (and how many of its dice counted), or that its hand stayed hidden (P-21).
  const shownHand = reveal ? reveal.reveals.find((r) => r.seat === i) : null;
  const keptHidden = reveal ? reveal.hidden.includes(i) : false;
  let cups;
  if (count === null) cups = html`<${Icon} name="cup" /><span class="count" aria-hidden="true">?</span><span class="sr-only">${t("seat.count_hidden")}</span>`;
  else if (count > 5) cups = html`<${HiddenDie} size="xs" /><span class="count">× ${count}</span>`;
  else cups = Array.from({ length: count }, () => html`<${HiddenDie} size="xs" />`);
  const label = [
    name,
    i === me ? t("seat.you") : null,
    out ? t("seat.out") : count === null ? null : t("seat.dice_left", { n: count }),
    view.to_act === i ? t("seat.to_act") : null,
  ].filter(Boolean).join(", ");
  return html`<li class="seat ${i === me ? "me" : ""} ${view.to_act === i ? "toact" : ""} ${out ? "out" : ""}" data-seat=${i} data-box="seat" aria-label=${label}>
    <div class="who">
      <${Avatar} index=${i} name=${name} bot=${botAccount || (info ? info.kind === "bot" : !!(names && isBotName(names[i])))} />
      <${Name} name=${name} />
      ${i === me ? html`<span class="muted you">(${t("seat.you")})</span>` : null}
      ${botAccount ? html`<span class="pill" data-testid="bot-account" title=${t("seat.bot_account_long")}>${t("seat.bot_account")}</span>` : null}
    </div>
    ${shownHand ? html`<div class="revealed reveal-row" data-testid="reveal-hand" data-seat=${i}>${shownHand.hand.map((d) => html`<${Die} face=${d} size="sm" wild=${reveal.wild} />`)}${reveal.bid_info ? html`<span class="plus">+${shownHand.count}</span>` : null}</div>`
      : keptHidden ? html`<div class="revealed hiddenhand reveal-row" data-seat=${i} data-hidden="1">${t("reveal.hidden")}</div>` : null}
    ${out ? null : html`<div class="cups ${shownHand || keptHidden ? "under-reveal" : ""}" data-count=${count === null ? "?" : count}>${cups}${shown.map((d) => html`<${Die} face=${d} size="xs" wild=${view.wild} />`)}</div>`}
    <div class="last"><${Bubble} info=${last} wild=${view.wild} /></div>
    <div class="status">
      ${view.to_act === i ? html`<span class="pill gold">${t("seat.to_act")}</span>` : null}
      ${info && info.away ? html`<span class="pill red">${t("seat.away")}</span>` : info && info.kind === "human" && !info.connected ? html`<span class="pill">${t("seat.offline")}</span>` : null}
      ${out ? html`<span class="pill">${t("seat.out")}</span>` : null}
    </div>
  </li>`;
}

export function Middle({ view, table, names, reveal, memory }) {
  const name = (i) => seatName(table, names, i);
  let body;
  if (view.bid_info) {
    body = html`<div class="bid" data-testid="current-bid"><span aria-hidden="true">${view.bid_info.quantity}</span><span class="x" aria-hidden="true">×</span><${Die} face=${view.bid_info.face} size="lg" wild=${view.wild} label=${false} /><span class="sr-only">${t("game.current_bid")}: ${bidWords(view.bid_info, view.wild)}</span></div>
      <div class="by">${t("game.by", { name: name(view.bidder) })}</div>`;
  } else if (view.phase === "bidding") {
    body = html`<div class="nobid">${t("game.no_bid")}</div><div class="by">${t("game.opens", { name: name(view.to_act) })}</div>`;
  } else if (view.phase === "deal" || view.phase === "reroll") {
    body = html`<div class="nobid">${t("game.dealing")}</div>`;
  } else if (view.phase === "choose_palifico") {
    body = html`<div class="nobid">${t("game.palifico_choice")}</div><div class="by">${name(view.to_act)}</div>`;
  } else if (view.phase === "game_over" && view.winner !== null) {
    body = html`<div class="nobid"><${Icon} name="trophy" /> ${t("over.winner", { name: name(view.winner) })}</div>`;
  }
  // The total of dice in play is shown only where dice counts are (never in memory mode, P-40).
  const total = memory ? null : view.dice_counts.reduce((a, b) => a + (b || 0), 0);
  // The last round's reveal comes first, under its own round's rules; the next round's
  // number and badges (a palifico round's, say) after it, never over it.
  return html`<div class="middle" data-box="middle">
    ${reveal ? html`<${RevealPanel} res=${reveal} table=${table} names=${names} wild=${reveal.wild} />` : null}
    <div class="round">${t("game.round", { n: view.round })}</div>
    <div class="bidbox">${body}</div>
    <div class="badges">
      ${total !== null ? html`<span class="pill" data-testid="total-dice">${t("game.total_dice", { n: total })}</span>` : null}
      ${view.wild !== null ? html`<span class="pill wildpill"><${Die} face=${view.wild} size="xs" wild=${view.wild} label=${false} /> ${t("game.wild", { face: faceName(view.wild, null) })}</span>` : null}
      ${view.palifico ? html`<span class="pill gold">${t("game.palifico_round")}</span>` : null}
      ${memory ? html`<span class="pill">${t("game.memory")}</span>` : null}
    </div>
  </div>`;
}

export function Felt({ view, table, names, me, reveal, bots }) {
  const lastBySeat = {};
  view.actions.forEach(([s], k) => (lastBySeat[s] = view.actions_info[k]));
  const n = view.dice_counts.length;
  const memory = !!(table && table.memory);
  return html`<section class="felt seats-${n}" data-testid="felt" aria-label=${t("game.table")}>
    <ul class="seats">
      ${view.dice_counts.map((_, i) => html`<${Seat} key=${i} view=${view} i=${i} table=${table} names=${names} me=${me} last=${lastBySeat[i]} reveal=${reveal} bots=${bots} />`)}
    </ul>
    <${Middle} view=${view} table=${table} names=${names} reveal=${reveal} memory=${memory} />
  </section>`;
}

// The result of a challenge, inline on the table (never a modal): each hand shown, how many
// of its dice count (the server counted), the verdict and who lost or gained dice.
export function RevealPanel({ res, table, names, wild }) {
  const name = (i) => seatName(table, names, i);
  const bid = res.bid_info;
  const bidW = bid ? bidWords(bid, wild) : "";
  let title;
  if (res.kind === "concede") {
    return html`<div class="reveal" data-testid="reveal" data-box="reveal"><h3>${t("reveal.concede", { name: name(res.caller) })}</h3>
      <div class="changes">${res.eliminated.map((s) => html`<span class="pill">${t("reveal.out", { name: name(s) })}</span>`)}</div></div>`;
  }
  if (res.kind === "dudo") title = t("reveal.dudo", { caller: name(res.caller), target: name(res.target), bid: bidW });
  else if (res.kind === "calza") title = t("reveal.calza", { caller: name(res.caller), bid: bidW });
  else title = t("reveal.pass", { caller: name(res.caller), target: name(res.target) });
  let verdict;
  if (res.kind === "calza") verdict = res.holds ? t("reveal.calza_ok") : t("reveal.calza_bad");
  else if (res.kind === "pass") verdict = res.holds ? t("reveal.pass_true") : t("reveal.pass_false");
  else verdict = res.holds ? t("reveal.holds") : t("reveal.fails");
  return html`<div class="reveal" data-testid="reveal" data-box="reveal">
    <h3>${res.kind === "calza" ? html`<${Icon} name="target" />` : null} ${title}</h3>
    <div class="revealrules" data-testid="reveal-rules">
      ${res.round ? html`<span class="pill">${t("game.round", { n: res.round })}</span>` : null}
      ${res.palifico ? html`<span class="pill">${t("game.palifico_round")}</span>`
        : wild !== null && wild !== undefined ? html`<span class="pill"><${Die} face=${wild} size="xs" wild=${wild} label=${false} /> ${t("game.wild", { face: faceName(wild, null) })}</span>` : null}
    </div>
    ${bid ? html`<div class="count">${t("reveal.count", { count: res.count, q: bid.quantity })}</div>` : null}
    <div class="verdict ${res.holds ? "good" : "bad"}">${verdict}</div>
    <div class="changes">
      ${res.changes.map(([s, d]) => d < 0
        ? html`<span class="pill red">${t("reveal.loses", { name: name(s), n: -d })}</span>`
        : html`<span class="pill teal">${t("reveal.gains", { name: name(s) })}</span>`)}
      ${res.eliminated.map((s) => html`<span class="pill">${t("reveal.out", { name: name(s) })}</span>`)}
    </div>
  </div>`;
}

// "Dudo: the bid fails. Bo loses a die." for the live region.
export function revealWords(res, table, names, wild) {
  const name = (i) => seatName(table, names, i);
  const bid = res.bid_info ? bidWords(res.bid_info, wild) : "";
  const parts = [];
  if (res.kind === "concede") return sentence(t("reveal.concede", { name: name(res.caller) }));
  if (res.kind === "dudo") parts.push(t("reveal.dudo", { caller: name(res.caller), target: name(res.target), bid }));
  else if (res.kind === "calza") parts.push(t("reveal.calza", { caller: name(res.caller), bid }));
  else parts.push(t("reveal.pass", { caller: name(res.caller), target: name(res.target) }));
  if (res.bid_info) parts.push(t("reveal.count", { count: res.count, q: res.bid_info.quantity }));
  if (res.kind === "calza") parts.push(res.holds ? t("reveal.calza_ok") : t("reveal.calza_bad"));
  else if (res.kind === "pass") parts.push(res.holds ? t("reveal.pass_true") : t("reveal.pass_false"));
  else parts.push(res.holds ? t("reveal.holds") : t("reveal.fails"));
  for (const [s, d] of res.changes) parts.push(d < 0 ? t("reveal.loses", { name: name(s), n: -d }) : t("reveal.gains", { name: name(s) }));
  return parts.map(sentence).join(" ");
}

export function RoundLog({ view, table, names }) {
  return html`<ol class="log" data-testid="round-log">
    ${view.actions.map(([s], k) => html`<li class="entry"><${ActionLine} name=${seatName(table, names, s)} info=${view.actions_info[k]} wild=${view.wild} /></li>`)}
    ${view.actions.length ? null : html`<li class="muted">—</li>`}
  </ol>`;
}

export function History({ past, table, names }) {
  if (!past || !past.length) return null;
  const who = (i) => seatName(table, names, i);
  return html`<details class="history">
    <summary>${t("game.history")} (${past.length})</summary>
    ${past.slice().reverse().map((r) => {
      const res = r.result;
      const ch = res.changes.map(([s, d]) => `${who(s)} ${d > 0 ? "+" : ""}${d}`).join(", ");
      return html`<div class="histround">
        <b>${t("game.round", { n: r.round })}</b> · ${res.bid_info ? html`<${BidText} info=${res.bid_info} />` : ""} ·
        ${res.kind === "concede" ? t("reveal.concede", { name: who(res.caller) }) : html`${res.kind === "dudo" ? t("word.label.dudo") : res.kind === "calza" ? t("word.label.calza") : t("btn.pass")} ${who(res.caller)} · ${ch}`}
      </div>`;
    })}
  </details>`;
}
