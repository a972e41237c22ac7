// The table page: the waiting room (seats, bots, start), then the game (the table with the
// reveal inline, this seat's dice and actions, the round's log, chat), then the result.
// Everything drawn comes from the server's messages (state.js); the page decides no rule.

import { html, useState, useEffect, useLayoutEffect, useRef, api, tokenKey, pct, BOT_LEVELS } from "../lib.js";
import { lang, sentence, t } from "../i18n.js";
import { TableSocket } from "../socket.js";
import { initialState, receive } from "../state.js";
import { Die, HiddenDie, bidWords } from "../components/dice.js";
import { Avatar, Icon, Missing, Name, NAME_MAX, NameInput, announce, displayName, nameTooLong, seatName, toast } from "../components/common.js";
import { Felt, RoundLog, History, actionWords, revealWords } from "../components/felt.js";
import { Actions, canAct } from "../components/actions.js";
import { Chat } from "../components/chat.js";
import { Guide } from "../components/guide.js";
import { RatingChange } from "../components/rating.js";
import { refusalText, ruleIds } from "../refusals.js";
import { notifyTurn, Prefs } from "../notify.js";
import { InviteByName } from "../components/friends.js";
import { TurnBanner } from "../components/turn.js";
import { Reactions, reactionArrived } from "../components/reactions.js";
import { OptionsSummary, TableOptions } from "../components/options.js";
import { Explain, explainable } from "../components/explain.js";

// -- the head: name, settings, invite -------------------------------------------------------

function TableHead({ tb, seated }) {
  const r = tb.rules;
  const link = tb.invite_url || `${location.origin}${tb.invite}`;
  const copy = (e) => {
    const input = e.currentTarget.parentElement.querySelector("input");
    input.select();
    (navigator.clipboard ? navigator.clipboard.writeText(link) : Promise.reject()).then(
      () => toast(t("table.copied"), true),
      () => document.execCommand && document.execCommand("copy"),
    );
  };
  return html`<div class="tablehead" data-box="head">
    <h1>${tb.name}</h1>
    <div class="pills">
      <span class=${tb.status === "playing" ? "pill gold" : "pill teal"} data-testid="status">${t(`status.${tb.status}`)}</span>
      <span class="pill">${t(`preset.${tb.preset}`)}</span>
      <span class="pill">${t("lobby.dice_each", { n: r.dice_per_player })}</span>
      ${r.calza !== "off" ? html`<span class="pill">${t("word.label.calza")}: ${t(`opt.${r.calza}`)}</span>` : null}
      ${r.palifico !== "off" ? html`<span class="pill">${t("word.label.palifico")}</span>` : null}
      ${tb.memory ? html`<span class="pill">${t("game.memory")}</span>` : null}
      ${tb.show_hands ? html`<span class="pill" data-testid="show-hands-pill">${t("table.show_hands")}</span>` : null}
      ${tb.turn_seconds ? html`<span class="pill"><${Icon} name="clock" />${t("opt.seconds", { n: tb.turn_seconds })}</span>` : null}
      ${tb.spectators ? html`<span class="pill"><${Icon} name="eye" />${t("seat.spectators", { n: tb.spectators })}</span>` : null}
    </div>
    <details class="invite" open=${tb.status === "open" && seated}>
      <summary>${t("table.invite")}</summary>
      <div class="row">
        <input value=${link} readonly data-testid="invite-link" aria-label=${t("table.invite")} onClick=${(e) => e.currentTarget.select()} />
        <button class="btn small" data-testid="copy-invite" onClick=${copy}>${t("table.copy")}</button>
      </div>
      ${tb.status === "open" && seated ? html`<${InviteByName} tableId=${tb.id} />` : null}
      ${tb.status === "open" && seated ? html`<figure class="inviteqr">
          <img src=${`/api/tables/${encodeURIComponent(tb.id)}/invite.svg`} data-testid="invite-qr" width="148" height="148" alt=${t("table.invite_qr")} />
          <figcaption class="muted">${t("table.invite_scan")}</figcaption>
        </figure>` : null}
    </details>
  </div>`;
}

// -- the waiting room ------------------------------------------------------------------------

function JoinForm({ onJoin }) {
  const [name, setName] = useState(localStorage.getItem("perudo.name") || "");
  return html`<form class="row joinform" onSubmit=${(e) => { e.preventDefault(); onJoin(name); }}>
    <label class="field grow"><span>${t("table.join_title")}</span>
      <${NameInput} value=${name} onInput=${(e) => setName(e.currentTarget.value)} testid="join-name" placeholder=${t("lobby.your_name")} autocomplete="nickname" />
    </label>
    <button class="btn primary" type="submit" data-testid="join">${t("table.join_btn")}</button>
  </form>`;
}

function WaitingRoom({ tb, seat, send, onJoin, onLeave }) {
  const seated = seat !== null;
  const host = seated && tb.host === seat;
  const [level, setLevel] = useState("medium");
  const taken = tb.seats.filter(Boolean).length;
  return html`<section class="card waiting" data-box="seats" aria-labelledby="players-title">
    <h2 id="players-title">${t("table.players")}</h2>
    ${host ? html`<div class="row controls" data-testid="host-controls">
        <select data-testid="fill-level" aria-label=${t("table.bot_level")} value=${level} onChange=${(e) => setLevel(e.currentTarget.value)}>
          ${BOT_LEVELS.map((l) => html`<option value=${l} selected=${l === level}>${t(`level.${l}`)}</option>`)}
        </select>
        <button class="btn" data-testid="fill-bots" disabled=${taken >= tb.seats.length} onClick=${() => send({ type: "fill_bots", level })}>${t("table.fill_bots")}</button>
        <span class="spacer"></span>
        <button class="btn primary big" data-testid="start" disabled=${taken < 2} onClick=${() => send({ type: "start" })}>${t("table.start")}</button>
      </div>
      ${taken < 2 ? html`<p class="muted">${t("table.need_two")}</p>` : null}`
    : !seated && taken < tb.seats.length ? html`<${JoinForm} onJoin=${onJoin} />`
    : null}
    <ul class="seatlist" data-testid="seats">
      ${tb.seats.map((s, i) => s === null
        ? html`<li class="seatrow emptyseat" data-seat=${i} key=${i}>
            <span class="avatar empty" aria-hidden="true">${i + 1}</span>
            <span class="grow">${t("table.seat_empty")}</span>
            ${host ? html`<span class="row">${BOT_LEVELS.map((l) => html`<button class="btn small" data-testid=${`add-bot-${l}`} onClick=${() => send({ type: "add_bot", level: l, seat: i })}>+ ${t(`level.${l}`)}</button>`)}</span>` : null}
          </li>`
        : html`<li class="seatrow" data-seat=${i} key=${i}>
            <${Avatar} index=${i} name=${displayName(s.name)} bot=${s.kind === "bot" || !!s.bot_account} />
            <span class="grow"><${Name} name=${displayName(s.name)} />
              ${i === seat ? html` <span class="muted">(${t("seat.you")})</span>` : null}
              ${s.bot_account ? html` <span class="pill" data-testid="bot-account" title=${t("seat.bot_account_long")}>${t("seat.bot_account")}</span>` : null}
              ${s.kind === "bot" ? html` <span class="pill">${t("seat.bot")} · ${t(`level.${s.level}`)}</span>` : null}
              ${s.host ? html` <span class="pill gold" data-testid="host-badge">${t("seat.host")}</span>` : null}
              ${s.kind === "human" && !s.connected ? html` <span class="pill">${t("seat.offline")}</span>` : null}
            </span>
            ${host && s.kind === "human" && i !== seat ? html`<button class="btn small" data-testid=${`make-host-${i}`} onClick=${() => send({ type: "make_host", seat: i })}>${t("table.make_host")}<span class="sr-only"> ${displayName(s.name)}</span></button>` : null}
            ${host && s.kind === "human" && i !== seat && !s.connected ? html`<button class="btn small" onClick=${() => send({ type: "remove_seat", seat: i })}>${t("table.remove")}<span class="sr-only"> ${displayName(s.name)}</span></button>` : null}
            ${host && s.kind === "bot" ? html`<button class="btn small" onClick=${() => send({ type: "remove_seat", seat: i })}>${t("table.remove")}<span class="sr-only"> ${displayName(s.name)}</span></button>` : null}
            ${i === seat ? html`<button class="btn small" data-testid="leave" onClick=${onLeave}>${t("table.leave")}</button>` : null}
          </li>`)}
    </ul>
    ${host ? html`<${TableOptions} tb=${tb} send=${send} />
      <p class="muted">${t("table.waiting")}</p>`
    : seated ? html`<p class="muted" data-testid="wait-host">${tb.host !== null ? t("table.waiting_host", { name: displayName(tb.seats[tb.host].name) }) : t("table.waiting")}</p>`
    : taken < tb.seats.length ? null : html`<p class="muted" data-testid="full">${t("table.full_watching")}</p>`}
    ${host ? null : html`<${OptionsSummary} tb=${tb} />`}
  </section>`;
}

// -- this seat's panel: dice, turn, timer, actions, refusals ----------------------------------

function TurnTimer({ end, total }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const id = setInterval(() => tick((n) => n + 1), 500);
    return () => clearInterval(id);
  }, []);
  const left = Math.max(0, (end - Date.now()) / 1000);
  return html`<span class="timer" data-testid="timer">
    <span class="timerbar" aria-hidden="true"><span style=${{ width: `${Math.min(100, Math.round((left / total) * 100))}%` }}></span></span>
    <span class="muted" data-testid="timer-label">${t("game.timer", { n: Math.ceil(left) })}</span>
  </span>`;
}

// A refusal in the player's words; when the rules refused, "why?" opens links to those rules
// in the rule book, in the page's language (the rule ids are the book's anchors, never words a
// player reads; the developer message stays in the socket's frames).
function Refusal({ err }) {
  if (!err) return null;
  const ids = ruleIds(err);
  const label = (i) => (ids.length > 1 ? t("error.rule_n", { n: i + 1 }) : t("error.rule"));
  return html`<div class="refusal" role="alert" data-testid="refusal">
    <span>${refusalText(err)}</span>
    ${ids.length
      ? html`<details class="why"><summary>${t("error.why")}</summary><span class="muted">${ids.map(
          (id, i) => html`${i ? " · " : ""}<a href=${`/rules/${lang()}#${id}`} target="_blank" rel="noopener" data-testid="why-rule">${label(i)}</a>`,
        )}</span></details>`
      : null}
  </div>`;
}

function Panel({ st, send, act }) {
  const v = st.view;
  const tb = st.table;
  const me = st.seat;
  const info = me !== null ? tb.seats[me] : null;
  const nameOf = (i) => seatName(tb, null, i);
  if (me === null) return html`<section class="card panel" data-box="panel" data-testid="panel"><p class="muted">${t("table.spectating")}</p></section>`;
  const count = v.dice_counts[me];
  const hand = v.hand.length
    ? v.hand.map((d) => html`<${Die} face=${d} size="lg" wild=${v.wild} />`)
    : count && v.phase !== "game_over" ? Array.from({ length: count }, () => html`<${HiddenDie} size="lg" />`) : [];
  const myTurn = v.phase !== "game_over" && v.to_act === me;
  return html`<section class="card panel ${myTurn ? "myturn" : ""}" data-box="panel" data-testid="panel" aria-label=${t("game.your_dice")}>
    ${info && info.away && v.phase !== "game_over" ? html`<div class="banner">${t("game.away_banner")}
      <button class="btn small primary" data-testid="back" onClick=${() => send({ type: "back" })}>${t("game.back")}</button></div>` : null}
    <div class="myhand">
      <span class="label">${t("game.your_dice")}</span>
      <span class="dice" data-testid="my-hand" role="group" aria-label=${t("game.your_dice")}>${hand}</span>
    </div>
    ${st.hint ? html`<div class="hint" data-testid="hint">${t("game.hint", { bid: bidWords(v.bid_info, v.wild), holds: pct(st.hint.holds), exact: pct(st.hint.exact) })}</div>` : null}
    ${v.phase !== "game_over" && v.to_act !== null ? html`<div class="turnline">
      ${myTurn ? html`<span class="yourturn" data-testid="your-turn">${t("game.your_turn")}</span>` : html`<span class="muted">${t("game.waiting_for", { name: nameOf(v.to_act) })}</span>`}
      ${st.timerEnd !== null && tb.turn_seconds ? html`<${TurnTimer} end=${st.timerEnd} total=${tb.turn_seconds} />` : null}
    </div>` : null}
    ${canAct(v) ? html`<${Actions} view=${v} onAct=${act} />` : null}
    <${Refusal} err=${st.error && Date.now() - st.error.at < 15000 ? st.error : null} />
    ${v.phase !== "game_over" && explainable(tb, me) ? html`<${Explain} tb=${tb} me=${me} view=${v} />` : null}
  </section>`;
}

// -- your seat: move it to another device, leave; the host removes an absent player ---------

function SeatCard({ st, send, onLeave }) {
  const tb = st.table;
  const me = st.seat;
  const [confirm, setConfirm] = useState(false);
  if (me === null) return null;
  const playing = tb.status === "playing";
  const host = tb.host === me;
  const absent = host && playing ? tb.seats.map((s, i) => [s, i]).filter(([s, i]) => s && s.kind === "human" && i !== me && !s.connected) : [];
  const tr = st.transfer && st.transfer.until > Date.now() ? st.transfer : null;
  return html`<section class="card seatcard" data-box="seatcard" aria-labelledby="seat-title">
    <h2 id="seat-title">${t("seatcard.title")}${host ? html` <span class="pill gold">${t("seat.host")}</span>` : null}</h2>
    <div class="row">
      <button class="btn small" data-testid="transfer" onClick=${() => send({ type: "transfer_seat" })}>${t("seatcard.transfer")}</button>
      ${tb.status === "open" ? null : confirm
        ? html`<button class="btn small danger" data-testid="leave-confirm" onClick=${() => { setConfirm(false); onLeave(); }}>${t("seatcard.leave_sure")}</button>
            <button class="btn small" onClick=${() => setConfirm(false)}>${t("seatcard.stay")}</button>`
        : html`<button class="btn small" data-testid="leave-table" onClick=${() => setConfirm(true)}>${t("seatcard.leave")}</button>`}
    </div>
    ${confirm ? html`<p class="muted">${playing ? (tb.vacated === "nobody" ? t("seatcard.leave_concede") : t("seatcard.leave_bot")) : t("seatcard.leave_free")}</p>` : null}
    ${tr ? html`<div class="transfer" data-testid="transfer-link">
      <p class="muted">${t("seatcard.transfer_help", { n: Math.max(1, Math.round((tr.until - Date.now()) / 60000)) })}</p>
      <div class="qr" role="img" aria-label=${t("seatcard.qr")} dangerouslySetInnerHTML=${{ __html: tr.qr }}></div>
      <input readonly value=${tr.url} aria-label=${t("seatcard.transfer")} onClick=${(e) => e.currentTarget.select()} />
    </div>` : null}
    ${absent.map(([s, i]) => html`<div class="row"><span class="grow">${displayName(s.name)} · ${t("seat.offline")}</span>
      <button class="btn small" data-testid=${`remove-${i}`} onClick=${() => send({ type: "remove_seat", seat: i })}>${t("table.remove")}<span class="sr-only"> ${displayName(s.name)}</span></button></div>`)}
  </section>`;
}

// -- the game's end, inline ------------------------------------------------------------------

function GameOver({ st, send }) {
  const v = st.view;
  const tb = st.table;
  if (v.phase !== "game_over" || v.winner === null) return null;
  const outIn = {};
  for (const r of st.past) for (const s of r.result.eliminated) outIn[s] = r.round;
  const order = v.dice_counts.map((_, i) => i).sort((a, b) => (a === v.winner ? -1 : b === v.winner ? 1 : (outIn[b] || 0) - (outIn[a] || 0)));
  return html`<section class="card over" data-testid="game-over" data-box="over" aria-labelledby="over-title">
    <h2 id="over-title"><${Icon} name="trophy" /> ${t("over.title")}</h2>
    <div class="winner" data-testid="winner">${v.winner === st.seat ? t("over.you_win") : t("over.winner", { name: seatName(tb, null, v.winner) })}</div>
    <ol class="standings">${order.map((i) => html`<li class=${i === v.winner ? "first" : ""}>
      <span>${seatName(tb, null, i)}${i === st.seat ? ` (${t("seat.you")})` : ""}${tb.seats[i] && tb.seats[i].bot_account ? html` <span class="pill" data-testid="bot-account" title=${t("seat.bot_account_long")}>${t("seat.bot_account")}</span>` : null}</span>
      <span class="muted">${i === v.winner ? "" : outIn[i] ? t("over.out_in", { n: outIn[i] }) : "—"}</span>
      <${RatingChange} changes=${tb.rating_changes} seat=${i} /></li>`)}</ol>
    <div class="row">
      ${st.seat !== null ? html`<button class="btn primary" data-testid="rematch" onClick=${() => send({ type: "rematch" })}>${t("over.rematch")}</button>` : null}
      ${tb.game_id ? html`<a class="btn" href=${`/replay/${tb.game_id}`} data-link data-testid="replay-link">${t("over.replay")}</a>` : null}
      ${tb.game_id ? html`<a class="btn" href=${st.seat !== null ? `/analysis/${tb.game_id}?seat=${st.seat}&table=${encodeURIComponent(tb.id)}` : `/analysis/${tb.game_id}`} data-link data-testid="analysis-link">${t("analysis.link")}</a>` : null}
      <a class="btn" href="/" data-link>${t("over.lobby")}</a>
    </div>
  </section>`;
}

// -- the page ---------------------------------------------------------------------------------

export function TablePage({ id }) {
  const [st, setSt] = useState(initialState);
  const stRef = useRef(st);
  // The state the page's elements show now: what a tap answers (a tap lands on those
  // elements). A message moves `stRef` at once, before the page is drawn again; a tap
  // meanwhile (on a button that stays, like an out-of-turn calza) still answers the bid shown.
  const drawn = useRef(st);
  useLayoutEffect(() => {
    drawn.current = st;
  });
  // For tests: the version drawn, noted once this state's effects (a turn's sound…) have run.
  useEffect(() => {
    document.documentElement.dataset.drawn = st.version === null ? "" : String(st.version);
  });
  const sock = useRef(null);
  // The drawn version a move or the start was sent from, until a refusal or the connection
  // goes; a second tap before the answer is drawn (a double tap on a phone) is dropped rather
  // than refused.
  const pending = useRef(null);
  const token = useRef(localStorage.getItem(tokenKey(id)));
  // A seat transfer link (/t/<id>#transfer=<token>): presented once in the hello, then the
  // fragment leaves the address bar.
  const transfer = useRef(/^#transfer=([\w-]+)$/.exec(location.hash)?.[1] || null);
  useEffect(() => {
    if (transfer.current) history.replaceState(history.state, "", location.pathname);
  }, []);
  useEffect(() => {
    const socket = new TableSocket(id, {
      hello: () => {
        const hello = transfer.current ? { type: "hello", transfer: transfer.current } : { type: "hello", token: token.current || null };
        transfer.current = null;
        if (stRef.current.version !== null) hello.last_version = stRef.current.version;
        return hello;
      },
      onLost: () => {
        pending.current = null;
        toast(t("conn.lost"));
      },
      onBack: () => toast(t("conn.back"), true),
      onMessage: (m) => {
        const before = stRef.current;
        if (m.type === "reaction") {
          reactionArrived(m);
          return;
        }
        if (m.type === "pong") {
          // A pong carries the table's version, not its changes. Ahead of the page, something
          // was missed: `sync` asks for it (what the page already has is skipped by version).
          if (before.version !== null && m.version > before.version) socket.send({ type: "sync", last_version: before.version });
          return;
        }
        if (m.type === "seat") {
          // This connection's seat changed: keep the new token, or forget the old one.
          if (m.reason === "transferred_in" && m.token) {
            localStorage.setItem(tokenKey(id), m.token);
            token.current = m.token;
          } else if (m.seat === null) {
            localStorage.removeItem(tokenKey(id));
            token.current = null;
          }
          toast(t(`seatmsg.${m.reason}`), m.reason === "transferred_in");
        }
        // No such table (an old or cut link), or the table was let go: the answer will not
        // change, so the socket stops rather than asking again and again.
        if (m.type === "error" && (m.code === "no_table" || m.code === "table_closed" || m.code === "table_deserted")) socket.close();
        if (m.type === "error" && m.code === "bad_token") {
          localStorage.removeItem(tokenKey(id));
          token.current = null;
        }
        if (m.type === "error") pending.current = null;
        const { state, fresh } = receive(before, m);
        // A refusal during one's game shows in the panel; others (and not the missing table,
        // which the page says in full) as a toast.
        if (m.type === "error" && m.code !== "no_table" && !(state.view && state.seat !== null && state.view.phase !== "game_over")) toast(refusalText(state.error));
        stRef.current = state;
        setSt(state);
        speak(before, state, fresh);
      },
    });
    sock.current = socket;
    return () => socket.close();
  }, [id]);

  // Your turn: the tab's title, and a sound or vibration if chosen.
  const myTurn = !!(st.view && st.view.phase !== "game_over" && st.seat !== null && st.view.to_act === st.seat && canAct(st.view));
  useEffect(() => {
    document.title = myTurn ? `● ${t("game.your_turn")} · ${st.table ? st.table.name : ""}` : st.table ? `${st.table.name} · ${t("app.title")}` : t("app.title");
    if (myTurn) {
      notifyTurn();
      focusMove();
    }
    // Each new turn notifies, even one that comes back before the page drew another's turn
    // (a new round, or the moves made since: the round's action count).
  }, [myTurn, st.view && st.view.round, st.view && st.view.actions.length, st.table && st.table.name]);

  const send = (msg) => {
    if (msg.type === "act" || msg.type === "start") {
      if (pending.current !== null && pending.current === drawn.current.version) return false;
      pending.current = drawn.current.version;
    }
    const sent = !!(sock.current && sock.current.send(msg));
    if (!sent) pending.current = null;
    return sent;
  };
  // A move names the version and the bid it was chosen on, as drawn: the server refuses it if
  // that bid no longer stands, rather than judge a calza or a dudo on a later bid.
  const act = (text) => {
    const d = drawn.current;
    return send({ type: "act", action: text, version: d.version, on: [d.view.round, d.view.bid] });
  };
  const join = async (name) => {
    name = name.trim();
    if (!name) {
      toast(t("error.bad_name"));
      return;
    }
    if (nameTooLong(name)) {
      toast(t("name.too_long", { n: NAME_MAX }));
      return;
    }
    localStorage.setItem("perudo.name", name);
    try {
      const out = await api("POST", `/api/tables/${id}/join`, { name });
      localStorage.setItem(tokenKey(id), out.token);
      token.current = out.token;
      send({ type: "hello", token: out.token });
    } catch (e) {
      toast(refusalText(e));
    }
  };
  const leave = () => {
    send({ type: "leave" });
    localStorage.removeItem(tokenKey(id));
    token.current = null;
  };

  if (st.missing) {
    return html`<${Missing} text=${t("table.missing")} />`;
  }
  if (!st.table) return html`<div class="card muted" aria-busy="true">…</div>`;
  const tb = st.table;
  const playing = st.view && tb.status !== "open";
  const mine = st.seat !== null ? tb.seats[st.seat] : null;
  return html`<div class="tablepage ${playing ? "playing" : "waitingroom"}">
    <${TableHead} tb=${tb} seated=${st.seat !== null} />
    <${TurnBanner} myTurn=${myTurn} onGo=${goToMove} />
    ${mine && mine.devices > 1 ? html`<div class="banner warn" role="alert" data-testid="two-devices">${t("seat.two_devices")}</div>` : null}
    <div class="tablegrid">
      <div class="main">
        ${playing ? html`
          <div class="game">
            <${Felt} view=${st.view} table=${tb} me=${st.seat} reveal=${st.reveal} />
            <${Panel} st=${st} send=${send} act=${act} />
          </div>
          <${GameOver} st=${st} send=${send} />
          <${Guide} view=${st.view} seat=${st.seat} />`
        : html`<${WaitingRoom} tb=${tb} seat=${st.seat} send=${send} onJoin=${join} onLeave=${leave} />`}
      </div>
      <aside class="side">
        ${playing ? html`<section class="card" data-box="log" aria-labelledby="round-title"><h2 id="round-title">${t("game.this_round")}</h2>
          <${RoundLog} view=${st.view} table=${tb} /><${History} past=${st.past} table=${tb} /></section>` : null}
        <${SeatCard} st=${st} send=${send} onLeave=${leave} />
        ${st.seat !== null ? html`<${Prefs} />` : null}
        ${playing ? html`<${Reactions} id=${id} tb=${tb} seated=${st.seat !== null} send=${send} />` : null}
        <${Chat} lines=${st.chat} onSend=${(text) => send({ type: "chat", text })} />
      </aside>
    </div>
  </div>`;
}

// The turn banner's tap: the panel back in view, the focus on the move.
function goToMove() {
  document.querySelector("[data-testid=panel]")?.scrollIntoView({ block: "center" });
  focusMove();
}

// A new turn of this seat: the keyboard's focus goes to the move (the first raise, else the
// first action), unless the person is typing or choosing elsewhere (a text field, a list).
function focusMove() {
  const a = document.activeElement;
  if (a && a.matches("input, textarea, select, [contenteditable=true]")) return;
  const move = document.querySelector("[data-testid=actions] [data-action]");
  if (move && move !== a) move.focus({ preventScroll: true });
}

// The live region: each new move, reveal and turn in words.
function speak(before, after, fresh) {
  const tb = after.table;
  const name = (i) => seatName(tb, null, i);
  const wild = before.view ? before.view.wild : after.view ? after.view.wild : null;
  const lines = [];
  for (const e of fresh) {
    if (e.type === "action") lines.push(actionWords(name(e.seat), e.action_info, wild));
    else if (e.type === "round_resolved") lines.push(revealWords(e, tb, null, wild));
    else if (e.type === "game_over") lines.push(e.winner === after.seat ? t("over.you_win") : t("over.winner", { name: name(e.winner) }));
  }
  const v = after.view;
  const wasMine = before.view && before.view.to_act === before.seat && before.seat !== null;
  if (v && v.phase !== "game_over" && after.seat !== null && v.to_act === after.seat && canAct(v) && (!wasMine || fresh.length)) {
    lines.push(t("game.your_turn") + (v.bid_info ? ". " + t("game.current_bid") + ": " + bidWords(v.bid_info, v.wild) : ""));
  }
  if (lines.length) announce(lines.map(sentence).join(" "));
}
