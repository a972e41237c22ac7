// Play now (docs/server.md, "Play now"): the lobby's button that puts this person in a pool by
// rules and table size, rated or not, with how long they will wait and which bots fill the
// empty seats then (or none). While they wait, the pool socket (/ws/play) shows who else
// waits and for how long; when the server seats them it hands over the table, seat and token,
// and the page goes to the table. A lost socket reconnects with the pool's ticket, keeping
// the place.

import { html, useState, useEffect, useRef, BOT_LEVELS, tokenKey } from "../lib.js";
import { t } from "../i18n.js";
import { refusalText } from "../refusals.js";
import { loadAccount } from "../views/account.js";
import { toast } from "./common.js";
import { Field, Select } from "./options.js";

const SIZES = [2, 4, 6];
const WAITS = [30, 60, 120, 300, 600];

const clock = (s) => {
  const n = Math.max(0, Math.floor(s));
  return `${Math.floor(n / 60)}:${String(n % 60).padStart(2, "0")}`;
};

function Waiting({ state, since, onLeave }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  const extra = (Date.now() - since) / 1000;
  return html`<div class="playnow-wait" data-testid="playnow-waiting" aria-live="polite">
    <div class="row"><b>${t("playnow.waiting")}</b> <span class="muted" data-testid="playnow-clock">${clock(state.waited + extra)}</span></div>
    ${state.overdue ? html`<div class="playnow-overdue" data-testid="playnow-overdue">${t("playnow.overdue")}</div>` : ""}
    <ul class="playnow-list" data-testid="playnow-list">
      ${state.waiting.map((w, i) => html`<li key=${i} class=${w.you ? "you" : ""}>
        <span>${w.name === null ? t("playnow.guest") : w.name}${w.bot ? ` · ${t("playnow.bot")}` : ""}${w.you ? ` (${t("playnow.you")})` : ""}</span>
        <span class="muted">${clock(w.waited + extra)}</span></li>`)}
    </ul>
    <button class="btn" type="button" data-testid="playnow-leave" onClick=${onLeave}>${t("playnow.leave")}</button>
  </div>`;
}

export function PlayNow({ config, navigate }) {
  const [signedIn, setSignedIn] = useState(false);
  const [rated, setRated] = useState(false);
  const [waiting, setWaiting] = useState(null); // {state, since}
  const [connecting, setConnecting] = useState(false);
  const live = useRef({ ws: null, join: null, ticket: null, done: true, leaving: false });
  useEffect(() => {
    loadAccount().then((a) => setSignedIn(!!a));
    return () => stop();
  }, []);
  const presets = config ? Object.keys(config.presets) : ["perudo"];

  // Leaving the page stops waiting (the server keeps the place a short while, then drops it).
  function stop() {
    const l = live.current;
    l.done = true;
    if (l.ws) l.ws.close();
    l.ws = null;
  }

  // Leave the queue: the server answers by closing the socket (or, too late, with a refusal:
  // the seat comes).
  function leave() {
    const l = live.current;
    if (l.ws && l.ws.readyState === WebSocket.OPEN) {
      l.leaving = true;
      l.ws.send(JSON.stringify({ type: "play_leave" }));
    } else {
      stop();
      setWaiting(null);
      setConnecting(false);
    }
  }

  function connect() {
    const l = live.current;
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/play`);
    l.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ ...l.join, ticket: l.ticket || undefined }));
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.type === "pool") {
        l.ticket = m.ticket;
        setConnecting(false);
        setWaiting({ state: m, since: Date.now() });
      } else if (m.type === "play_matched") {
        l.done = true;
        ws.close();
        localStorage.setItem(tokenKey(m.table_id), m.token);
        setWaiting(null);
        navigate(m.invite);
      } else if (m.type === "error") {
        toast(refusalText(m));
        if (m.code === "pool_seating") l.leaving = false;
        else if (!m.code.startsWith("rate_")) {
          l.done = true;
          l.ticket = null;
          ws.close();
          setWaiting(null);
          setConnecting(false);
        }
      }
    };
    ws.onclose = () => {
      if (l.ws !== ws || l.done) return;
      if (l.leaving) {
        l.done = true;
        setWaiting(null);
        setConnecting(false);
        return;
      }
      // Lost while waiting: back with the ticket (the place is kept for a while).
      setConnecting(true);
      setTimeout(() => !l.done && connect(), 1000);
    };
  }

  const submit = (e) => {
    e.preventDefault();
    const fd = new FormData(e.currentTarget);
    const isRated = signedIn && fd.get("rated") === "on";
    const bots = String(fd.get("bots") || "");
    // The name typed in the create-table form, else the last one used (a guest's name at the table).
    const name = (document.querySelector("[data-testid=player-name]")?.value || localStorage.getItem("perudo.name") || "").trim();
    live.current = {
      ws: null,
      ticket: null,
      done: false,
      leaving: false,
      join: {
        type: "play_join",
        preset: fd.get("preset"),
        seats: Number(fd.get("seats")),
        rated: isRated,
        wait: Number(fd.get("wait")),
        bots: isRated || !bots ? null : bots,
        name: name ? [...name].slice(0, 24).join("") : undefined,
      },
    };
    setConnecting(true);
    connect();
  };

  if (waiting || connecting) {
    return html`<div class="playnow" data-testid="playnow">
      ${waiting ? html`<${Waiting} state=${waiting.state} since=${waiting.since} onLeave=${leave} />`
        : html`<div class="muted" data-testid="playnow-connecting">${t("playnow.connecting")}</div>`}
    </div>`;
  }
  return html`<form class="playnow" data-testid="playnow" onSubmit=${submit}>
    <div class="grid2">
      <${Field} label=${t("lobby.preset")}><${Select} name="preset" testid="playnow-preset" value="perudo" options=${presets.map((p) => [p, t(`preset.${p}`)])} /><//>
      <${Field} label=${t("playnow.size")}><${Select} name="seats" testid="playnow-seats" value="2" options=${SIZES.map((n) => [n, t(`playnow.size.${n}`)])} /><//>
    </div>
    <div class="grid2">
      <${Field} label=${t("playnow.wait")}><${Select} name="wait" testid="playnow-wait" value="60" options=${WAITS.map((s) => [s, clock(s)])} /><//>
      <${Field} label=${t("playnow.bots")}><${Select} name="bots" testid="playnow-bots" value="" options=${[["", t("playnow.no_bots")], ...BOT_LEVELS.map((l) => [l, t(`level.${l}`)])]} /><//>
    </div>
    ${signedIn ? html`<label class="check"><input type="checkbox" name="rated" data-testid="playnow-rated" checked=${rated} onChange=${(e) => setRated(e.currentTarget.checked)} /> ${t("playnow.rated")}</label>` : ""}
    <button class="btn primary big" type="submit" data-testid="playnow-go">${t("playnow.go")}</button>
  </form>`;
}
