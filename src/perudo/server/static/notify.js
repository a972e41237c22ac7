// Your turn, noticed: a short sound and a vibration, each only if the player turned it on
// (remembered in this browser). The tab's title is set by the table page.

import { html, useState } from "./lib.js";
import { t } from "./i18n.js";
import { PushPrefs } from "./components/friends.js";

const pref = (k) => localStorage.getItem(`perudo.${k}`) === "1";

let audio = null;

export function notifyTurn() {
  if (pref("sound")) {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + 0.35);
    } catch (e) {
      /* no audio here */
    }
  }
  if (pref("vibrate") && navigator.vibrate) navigator.vibrate([120, 60, 120]);
}

export function Prefs() {
  const [sound, setSound] = useState(pref("sound"));
  const [vibrate, setVibrate] = useState(pref("vibrate"));
  const set = (k, v, f) => {
    localStorage.setItem(`perudo.${k}`, v ? "1" : "0");
    f(v);
  };
  return html`<section class="card prefs" data-box="prefs" aria-labelledby="prefs-title">
    <h2 id="prefs-title">${t("prefs.title")}</h2>
    <label class="check"><input type="checkbox" data-testid="pref-sound" checked=${sound} onChange=${(e) => set("sound", e.currentTarget.checked, setSound)} /> ${t("prefs.sound")}</label>
    ${"vibrate" in navigator ? html`<label class="check"><input type="checkbox" data-testid="pref-vibrate" checked=${vibrate} onChange=${(e) => set("vibrate", e.currentTarget.checked, setVibrate)} /> ${t("prefs.vibrate")}</label>` : null}
    <${PushPrefs} />
  </section>`;
}
