// Quick reactions at the table: a row of emotes (each named in the reader's language), sent
// on the table's socket (`react`); everyone's reactions float up for a few seconds at the
// bottom of the screen. "Mute" stops showing this table's reactions on this device
// (remembered in this browser, per table). The server limits how often a seat reacts.

import { html, useState, useEffect } from "../lib.js";
import { t } from "../i18n.js";
import { seatName } from "./common.js";

// The server's emotes (perudo.server.protocol.Emote), drawn.
export const EMOTES = { nice: "👍", haha: "😂", wow: "😮", bluff: "🤥", ouch: "😬", gg: "🤝" };

const SHOWN_MS = 4000;
const listeners = new Set();
let next = 0;

// A `reaction` message from the table's socket, to the table's reactions drawn now.
export function reactionArrived(m) {
  for (const on of listeners) on(m);
}

const muteKey = (id) => `perudo.mute_reactions.${id}`;

export function Reactions({ id, tb, seated, send }) {
  const [muted, setMuted] = useState(localStorage.getItem(muteKey(id)) === "1");
  const [shown, setShown] = useState([]);
  useEffect(() => {
    if (muted) {
      setShown([]);
      return undefined;
    }
    const on = (m) => {
      if (!(m.emote in EMOTES)) return;
      const key = ++next;
      setShown((s) => [...s.slice(-4), { key, seat: m.seat, emote: m.emote }]);
      setTimeout(() => setShown((s) => s.filter((x) => x.key !== key)), SHOWN_MS);
    };
    listeners.add(on);
    return () => listeners.delete(on);
  }, [id, muted]);
  const mute = (on) => {
    localStorage.setItem(muteKey(id), on ? "1" : "0");
    setMuted(on);
  };
  return html`<section class="card reactions" data-box="reactions" aria-labelledby="react-title">
    <h2 id="react-title">${t("react.title")}</h2>
    ${seated ? html`<div class="row emotes" data-testid="emotes">
      ${Object.entries(EMOTES).map(([k, e]) => html`<button class="btn small" data-emote=${k} title=${t(`react.${k}`)} aria-label=${t(`react.${k}`)} onClick=${() => send({ type: "react", emote: k })}>${e}</button>`)}
    </div>` : null}
    <label class="check"><input type="checkbox" data-testid="mute-reactions" checked=${muted} onChange=${(e) => mute(e.currentTarget.checked)} /> ${t("react.mute")}</label>
    <div class="reactfloat" data-testid="reactions-shown" aria-live="polite">
      ${shown.map((r) => html`<div class="reaction" key=${r.key} data-seat=${r.seat} data-emote=${r.emote}><span aria-hidden="true">${EMOTES[r.emote]}</span> ${seatName(tb, null, r.seat)}: ${t(`react.${r.emote}`)}</div>`)}
    </div>
  </section>`;
}
