// Small shared pieces: icons, names and avatars, toasts, the live region.

import { html, createStore, useStore, useState } from "../lib.js";
import { t, MESSAGES } from "../i18n.js";

const ICONS = {
  bot: '<svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><rect x="4" y="8" width="16" height="11" rx="3"/><path d="M12 4v4M9 13h.01M15 13h.01M9 16.5h6"/><circle cx="12" cy="3.5" r="1"/></svg>',
  clock: '<svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><circle cx="12" cy="13" r="8"/><path d="M12 9v4l2.5 2.5M9 2h6"/></svg>',
  trophy: '<svg viewBox="0 0 24 24" width="1em" height="1em" fill="currentColor"><path d="M7 3h10v2h3v3a4 4 0 0 1-4 4h-.3A5 5 0 0 1 13 14.9V18h3v3H8v-3h3v-3.1A5 5 0 0 1 8.3 12H8a4 4 0 0 1-4-4V5h3V3zm0 4H6v1a2 2 0 0 0 1.2 1.8A5 5 0 0 1 7 8V7zm10 0v1a5 5 0 0 1-.2 1.8A2 2 0 0 0 18 8V7h-1z"/></svg>',
  eye: '<svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" stroke-width="2"><path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z"/><circle cx="12" cy="12" r="3"/></svg>',
  cup: '<svg viewBox="0 0 24 24" width="1em" height="1em" fill="currentColor"><path d="M6 4h12l-2 16H8L6 4z" opacity=".9"/><rect x="5" y="3" width="14" height="3" rx="1.5"/></svg>',
  target: '<svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" stroke-width="2"><circle cx="12" cy="12" r="9"/><circle cx="12" cy="12" r="5"/><circle cx="12" cy="12" r="1.5" fill="currentColor"/></svg>',
};

export function Icon({ name }) {
  return html`<span class="icon" aria-hidden="true" dangerouslySetInnerHTML=${{ __html: ICONS[name] }}></span>`;
}

export const SEAT_COLORS = ["#f2b33d", "#2bb3a3", "#e0503f", "#8f7cf5", "#5fb0f2", "#f27ab8", "#9bd35a", "#f28a3d", "#c9c9c9", "#46d1e0"];

// The server names bot seats in English ("Easy bot 1": perudo.i18n.names, from the catalog's
// name.bot and name.level.*); the page says them in its language from the same words.
let botPattern = null;
function storedBot() {
  if (!botPattern) {
    const en = MESSAGES.en;
    const levels = Object.keys(en).filter((k) => k.startsWith("name.level.")).map((k) => k.slice(11));
    const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const alt = levels.map((l) => esc(en[`name.level.${l}`])).join("|");
    const src = esc(en["name.bot"]).replace("\\{level\\}", `(?<level>${alt})`).replace("\\{n\\}", "(?<n>\\d{1,4})");
    botPattern = { re: new RegExp(`^${src}$`), levels };
  }
  return botPattern;
}

export function displayName(name) {
  const { re, levels } = storedBot();
  const m = re.exec(name || "");
  if (!m) return name || "";
  const level = levels.find((l) => MESSAGES.en[`name.level.${l}`] === m.groups.level);
  return t("name.bot", { level: t(`name.level.${level}`), n: m.groups.n });
}

// Whether a seat's stored name is a bot's (a person may not take one: the names are reserved).
// A replay has names only, and draws bots as bots from them, as the live table does.
export function isBotName(name) {
  return storedBot().re.test(name || "");
}

export function seatName(table, names, i) {
  if (i === null || i === undefined) return "";
  if (table && table.seats && table.seats[i]) return displayName(table.seats[i].name);
  if (names && names[i]) return displayName(names[i]);
  return `#${i + 1}`;
}

// A person's name has at most NAME_MAX characters (the server's limit, counted as it counts
// them). A longer one is never cut short in silence: the field says the limit in the page's
// language, and the form refuses it (nameTooLong).
export const NAME_MAX = 24;
export const nameTooLong = (name) => [...String(name).trim()].length > NAME_MAX;

export function NameInput({ value = "", onInput, testid, ...rest }) {
  const [text, setText] = useState(value);
  const long = nameTooLong(text);
  const note = `${testid}-limit`;
  return html`<input type="text" value=${text} data-testid=${testid} aria-invalid=${long ? "true" : "false"} aria-describedby=${long ? note : undefined}
      onInput=${(e) => { setText(e.currentTarget.value); if (onInput) onInput(e); }} ...${rest} />
    ${long ? html`<span class="fieldnote" id=${note} role="alert" data-testid="name-limit">${t("name.too_long", { n: NAME_MAX })}</span>` : null}`;
}

// The first grapheme of a name (an emoji with its modifiers, a Hangul syllable, an accented
// letter), upper-cased where the script has case.
export function initial(name) {
  const text = String(name || "").trim();
  if (!text) return "?";
  if (typeof Intl !== "undefined" && Intl.Segmenter) {
    for (const { segment } of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)) {
      return segment.toLocaleUpperCase();
    }
  }
  return Array.from(text)[0].toLocaleUpperCase();
}

export function Avatar({ index, name, bot }) {
  return html`<span class="avatar" aria-hidden="true" style=${{ background: SEAT_COLORS[index % SEAT_COLORS.length] }}>
    ${bot ? html`<${Icon} name="bot" />` : initial(name)}
  </span>`;
}

// A name that may be cut short on screen: the whole name on hover (title) and on tap (toggles).
export function Name({ name, class: cls = "nm" }) {
  return html`<span class=${cls} title=${name} tabindex="-1" onClick=${(e) => e.currentTarget.classList.toggle("full")}>${name}</span>`;
}

// -- toasts --------------------------------------------------------------------------------

const toasts = createStore({ list: [] });
let nextToast = 1;

// Nothing to show here (no such table, no such page): says so, with the way back to the lobby.
export function Missing({ text, testid }) {
  return html`<section class="card" data-testid=${testid}><h1>${text}</h1><a class="btn primary" href="/" data-link>${t("over.lobby")}</a></section>`;
}

export function toast(text, ok = false) {
  const id = nextToast++;
  toasts.set((s) => ({ list: s.list.concat([{ id, text, ok }]) }));
  setTimeout(() => toasts.set((s) => ({ list: s.list.filter((x) => x.id !== id) })), 5000);
}

export function Toasts() {
  const { list } = useStore(toasts);
  return html`<div class="toast-box" role="status" aria-live="polite">
    ${list.map((x) => html`<div key=${x.id} class=${x.ok ? "toast ok" : "toast"}>${x.text}</div>`)}
  </div>`;
}

// -- the live region: bids, turns and reveals read out by screen readers --------------------

const spoken = createStore({ text: "", n: 0 });

export function announce(text) {
  if (text) spoken.set((s) => ({ text, n: s.n + 1 }));
}

export function LiveRegion() {
  const { text, n } = useStore(spoken);
  return html`<div class="sr-only" aria-live="assertive" aria-atomic="true" data-testid="live" data-n=${n}>${text}</div>`;
}
