// The table's options as form fields, shared by the lobby's form (a new table) and the
// waiting room (the host changes them before the game): the turn timer, the odds hint, who
// takes the seat of a player who leaves, memory mode. One list of choices for both.

import { html } from "../lib.js";
import { t } from "../i18n.js";

export const TIMER_SECONDS = [20, 30, 45, 60, 90, 120];

export function Field({ label, children }) {
  return html`<label class="field"><span>${label}</span>${children}</label>`;
}

export function Select({ name, options, value, testid, onChange }) {
  return html`<select name=${name} data-testid=${testid} onChange=${onChange}>
    ${options.map(([v, l]) => html`<option value=${v} selected=${String(v) === String(value)}>${l}</option>`)}
  </select>`;
}

export function timerChoices(current) {
  const secs = TIMER_SECONDS.includes(Number(current)) || !Number(current) ? TIMER_SECONDS : [...TIMER_SECONDS, Number(current)].sort((a, b) => a - b);
  return [[0, t("opt.no_timer")], ...secs.map((n) => [n, t("opt.seconds", { n })])];
}

export const oddsChoices = () => [["auto", t("opt.odds_auto")], ["on", t("opt.on")], ["off", t("opt.off")]];
export const vacatedChoices = () => [["bot", t("opt.vacated_bot")], ["nobody", t("opt.vacated_nobody")]];

// The host's options in the waiting room: each change goes to the server at once
// (`set_options`), and every page at the table shows the table the server sends back.
export function TableOptions({ tb, send }) {
  const set = (patch) => send({ type: "set_options", ...patch });
  return html`<details class="options" data-testid="table-options">
    <summary>${t("table.options")}</summary>
    <div class="grid2">
      <${Field} label=${t("lobby.timer")}><${Select} testid="opt-timer" value=${tb.turn_seconds} options=${timerChoices(tb.turn_seconds)}
        onChange=${(e) => set({ turn_seconds: Number(e.currentTarget.value) })} /><//>
      <${Field} label=${t("lobby.odds")}><${Select} testid="opt-odds" value=${tb.odds} options=${oddsChoices()}
        onChange=${(e) => set({ odds: e.currentTarget.value })} /><//>
    </div>
    <${Field} label=${t("lobby.vacated")}><${Select} testid="opt-vacated" value=${tb.vacated} options=${vacatedChoices()}
      onChange=${(e) => set({ vacated: e.currentTarget.value })} /><//>
    <label class="check"><input type="checkbox" data-testid="opt-memory" checked=${tb.memory} onChange=${(e) => set({ memory: e.currentTarget.checked })} /> ${t("lobby.memory")}</label>
  </details>`;
}

// What a guest sees of the same options: the odds hint and who takes a leaver's seat (the
// timer and memory mode are in the table's head).
export function OptionsSummary({ tb }) {
  const odds = Object.fromEntries(oddsChoices())[tb.odds];
  const vacated = Object.fromEntries(vacatedChoices())[tb.vacated];
  return html`<p class="muted small" data-testid="options-summary">${t("lobby.odds")}: ${odds} · ${t("lobby.vacated")}: ${vacated}</p>`;
}
