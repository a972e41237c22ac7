// The Perudo page: lobby, table and replay. It renders what the server sends (seat views,
// audience-filtered events, table information) and sends actions; it decides no rule. The
// buttons it shows are exactly the actions listed in the view's `legal`.

import { LANGS, MESSAGES, detectLang, lang, setLang, t } from "./i18n.js";

// ---------------------------------------------------------------- small helpers

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "style") el.setAttribute("style", v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

function toast(text, ok = false) {
  const box = document.getElementById("toasts");
  const el = h("div", { class: ok ? "toast ok" : "toast", role: "status" }, text);
  box.append(el);
  setTimeout(() => el.remove(), 5000);
}

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.message || res.statusText);
  return data;
}

const tokenKey = (id) => `perudo.token.${id}`;
const pct = (x) => `${Math.round(x * 100)}%`;
const SEAT_COLORS = ["#f2b33d", "#2bb3a3", "#e0503f", "#8f7cf5", "#5fb0f2", "#f27ab8", "#9bd35a", "#f28a3d", "#c9c9c9", "#46d1e0"];

// ---------------------------------------------------------------- icons (inline SVG: no emoji font needed)

const ICONS = {
  bot: '<svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><rect x="4" y="8" width="16" height="11" rx="3"/><path d="M12 4v4M9 13h.01M15 13h.01M9 16.5h6"/><circle cx="12" cy="3.5" r="1"/></svg>',
  clock: '<svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><circle cx="12" cy="13" r="8"/><path d="M12 9v4l2.5 2.5M9 2h6"/></svg>',
  trophy: '<svg viewBox="0 0 24 24" width="1em" height="1em" fill="currentColor"><path d="M7 3h10v2h3v3a4 4 0 0 1-4 4h-.3A5 5 0 0 1 13 14.9V18h3v3H8v-3h3v-3.1A5 5 0 0 1 8.3 12H8a4 4 0 0 1-4-4V5h3V3zm0 4H6v1a2 2 0 0 0 1.2 1.8A5 5 0 0 1 7 8V7zm10 0v1a5 5 0 0 1-.2 1.8A2 2 0 0 0 18 8V7h-1z"/></svg>',
  eye: '<svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" stroke-width="2"><path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z"/><circle cx="12" cy="12" r="3"/></svg>',
  cup: '<svg viewBox="0 0 24 24" width="1em" height="1em" fill="currentColor"><path d="M6 4h12l-2 16H8L6 4z" opacity=".9"/><rect x="5" y="3" width="14" height="3" rx="1.5"/></svg>',
  target: '<svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" stroke-width="2"><circle cx="12" cy="12" r="9"/><circle cx="12" cy="12" r="5"/><circle cx="12" cy="12" r="1.5" fill="currentColor"/></svg>',
};

function icon(name, cls = "icon") {
  const el = h("span", { class: cls, "aria-hidden": "true" });
  el.innerHTML = ICONS[name];
  return el;
}

// ---------------------------------------------------------------- dice

const PIPS = { 1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

function die(face, cls = "") {
  if (!PIPS[face]) return h("span", { class: `die num ${cls}`, "data-face": face }, face);
  const el = h("span", { class: `die ${face === 1 ? "ace" : ""} ${cls}`, "data-face": face, title: String(face) });
  for (let i = 0; i < 9; i++) el.append(PIPS[face].includes(i) ? h("i") : h("span"));
  return el;
}

function hiddenDie(cls = "") {
  return h("span", { class: `die hidden ${cls}`, title: "?" });
}

function parseBid(text) {
  const m = /^(\d+)x(\d+)$/.exec(text || "");
  return m ? { q: Number(m[1]), f: Number(m[2]) } : null;
}

function bidEl(text, size = "sm") {
  const b = parseBid(text);
  if (!b) return h("span", {}, text);
  return h("span", { class: "bidtext" }, `${b.q} ×`, die(b.f, size));
}

function actionText(seatName, action) {
  const b = parseBid(action);
  if (b) return [t("act.bid", { name: seatName, bid: "" }), bidEl(action, "xs")];
  if (action === "dudo") return [t("act.dudo", { name: seatName })];
  if (action === "calza") return [t("act.calza", { name: seatName })];
  if (action === "pass") return [t("act.pass", { name: seatName })];
  if (action === "palifico") return [t("act.palifico", { name: seatName })];
  if (action === "normal") return [t("act.normal", { name: seatName })];
  if (action.startsWith("aside ")) {
    const dice = [...action.slice(6)].map((d) => die(Number(d), "xs"));
    return [t("act.aside", { name: seatName, dice: "" }), ...dice];
  }
  return [`${seatName}: ${action}`];
}

// ---------------------------------------------------------------- routing

let page = null;

function navigate(path) {
  history.pushState({}, "", path);
  route();
}

function route() {
  if (page && page.destroy) page.destroy();
  const path = location.pathname;
  let m;
  if ((m = /^\/t\/([\w-]+)$/.exec(path))) page = new TablePage(m[1]);
  else if ((m = /^\/replay\/([A-Za-z0-9_-]{1,64})$/.exec(path))) page = new ReplayPage(m[1]);
  else page = new LobbyPage();
  document.getElementById("nav-lobby").classList.toggle("active", page instanceof LobbyPage);
  page.start();
}

document.addEventListener("click", (e) => {
  const a = e.target.closest("a[data-link]");
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey) return;
  const url = new URL(a.href);
  if (url.origin !== location.origin) return;
  e.preventDefault();
  if (url.pathname === location.pathname && url.hash) {
    const el = document.getElementById(url.hash.slice(1));
    if (el) el.scrollIntoView({ behavior: "smooth" });
    return;
  }
  navigate(url.pathname + url.hash);
});
window.addEventListener("popstate", route);
// The browser knows when the network goes and comes back; an open WebSocket is not told:
// Chromium keeps it open (no close event) while offline, and a dead connection can take
// minutes to time out. So the table page drops its socket on "offline", retries on "online".
window.addEventListener("offline", () => page && page.offline && page.offline());
window.addEventListener("online", () => page && page.online && page.online());

// A connection can also die silently (a Wi-Fi switch, a dead NAT entry): no offline event, no
// close, for minutes. So while the table's socket is open the page sends a `ping` every
// `interval` ms, and if nothing at all comes from the server within `timeout` ms of a ping, it
// takes the socket for dead and reconnects. A test may set `window.PERUDO_HEARTBEAT =
// { interval, timeout }` (milliseconds) before this module loads.
const HEARTBEAT = (() => {
  const o = window.PERUDO_HEARTBEAT || {};
  const ms = (v, d) => (Number.isFinite(v) && v > 0 ? v : d);
  return { interval: ms(o.interval, 10000), timeout: ms(o.timeout, 5000) };
})();

function renderChrome() {
  document.querySelectorAll("[data-t]").forEach((el) => (el.textContent = t(el.dataset.t)));
  document.title = t("app.title");
  // The rule book is a page of its own (served in each language: /rules/en, /rules/ko, …).
  document.getElementById("nav-rules").href = `/rules/${lang()}`;
  const sel = document.getElementById("lang");
  sel.replaceChildren(...Object.entries(LANGS).map(([k, v]) => h("option", { value: k, selected: k === lang() }, v)));
  const logo = document.getElementById("logo");
  logo.replaceChildren(die(1, "xs"), die(5, "xs"));
}

document.getElementById("lang").addEventListener("change", (e) => {
  setLang(e.target.value);
  renderChrome();
  if (page) page.render();
});

// ---------------------------------------------------------------- lobby

class LobbyPage {
  constructor() {
    this.config = null;
    this.tables = [];
    this.games = [];
    this.timer = null;
    this.form = null;
  }

  async start() {
    this.render();
    try {
      this.config = await api("GET", "/api/config");
    } catch (e) {
      toast(t("error.generic", { message: e.message }));
    }
    await this.refresh();
    this.timer = setInterval(() => this.refresh(), 3000);
  }

  destroy() {
    clearInterval(this.timer);
  }

  async refresh() {
    try {
      const [tables, games] = await Promise.all([api("GET", "/api/tables"), api("GET", "/api/games")]);
      this.tables = tables.tables;
      this.games = games.games;
    } catch (e) {
      return;
    }
    this.renderLists();
    if (!this.form) this.render();
  }

  render() {
    const app = document.getElementById("app");
    const saved = this.form ? Object.fromEntries(new FormData(this.form)) : null;
    this.listBox = h("div", { class: "tables", "data-testid": "table-list" });
    this.gamesBox = h("div", { class: "games", "data-testid": "game-list" });
    this.form = this.buildForm(saved);
    app.replaceChildren(
      h("div", { class: "hero" },
        h("div", { class: "dice" }, die(1, "lg"), die(3, "lg"), die(5, "lg")),
        h("div", {}, h("h1", {}, t("app.title")), h("p", {}, t("app.tagline")))),
      h("div", { class: "lobby" },
        h("div", { class: "col" },
          h("section", { class: "card" }, h("h2", {}, t("lobby.open_tables")), this.listBox),
          h("section", { class: "card", id: "games", style: "margin-top:22px" }, h("h2", {}, t("lobby.recent")), this.gamesBox)),
        h("section", { class: "card" }, h("h2", {}, t("lobby.create")), this.form)),
    );
    this.renderLists();
    if (location.hash === "#games") document.getElementById("games").scrollIntoView();
  }

  renderLists() {
    if (!this.listBox) return;
    this.listBox.replaceChildren(
      ...(this.tables.length
        ? this.tables.map((tb) => {
            const full = tb.taken >= tb.seat_count || tb.status !== "open";
            return h("div", { class: "tablecard", "data-table": tb.id },
              h("div", { class: "dice" }, die(Math.min(6, tb.taken || 1), "md")),
              h("div", { style: "flex:1;min-width:0" },
                h("div", { class: "name" }, tb.name),
                h("div", { class: "meta" },
                  h("span", { class: "pill gold" }, t(`preset.${tb.preset}`)),
                  h("span", { class: "pill" }, `${tb.dice} × ${t("lobby.dice").toLowerCase()}`),
                  h("span", { class: "pill" }, t("lobby.seats_taken", { taken: tb.taken, total: tb.seat_count })),
                  h("span", { class: tb.status === "open" ? "pill teal" : "pill" }, t(`status.${tb.status}`))),
                h("div", { class: "players" }, tb.players.map(displayName).join(" · "))),
              h("a", { class: full ? "btn" : "btn primary", href: tb.invite, "data-link": true },
                full ? t("lobby.watch") : t("lobby.join")));
          })
        : [h("div", { class: "empty" }, t("lobby.none"))]),
    );
    this.gamesBox.replaceChildren(
      ...(this.games.length
        ? this.games.slice(0, 12).map((g) =>
            h("div", { class: "gamerow" },
              h("span", {}, h("b", {}, g.table_name), " · ", g.names.map(displayName).join(", ")),
              h("span", {},
                g.winner !== null ? h("span", { class: "muted" }, t("lobby.won", { name: displayName(g.names[g.winner]) }) + " · ") : "",
                h("a", { href: `/replay/${g.id}`, "data-link": true }, t("nav.replays")))))
        : [h("div", { class: "muted" }, t("lobby.no_games"))]),
    );
  }

  buildForm(saved) {
    const v = (k, d) => (saved && saved[k] !== undefined ? saved[k] : d);
    const name = localStorage.getItem("perudo.name") || "";
    const presets = this.config ? Object.keys(this.config.presets) : ["perudo", "perudo_calza", "liars_dice", "bluff"];
    const opt = (value, label, cur) => h("option", { value, selected: String(cur) === String(value) }, label);
    const select = (nm, options, cur, testid) =>
      h("select", { name: nm, "data-testid": testid }, ...options.map(([val, lab]) => opt(val, lab, cur)));
    const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
    const form = h("form", { class: "create", "data-testid": "create-form" },
      h("label", { class: "field" }, t("lobby.your_name"),
        h("input", { type: "text", name: "player", maxlength: 24, required: true, value: v("player", name), "data-testid": "player-name", autocomplete: "nickname" })),
      h("label", { class: "field" }, t("lobby.table_name"),
        h("input", { type: "text", name: "name", maxlength: 60, value: v("name", ""), placeholder: t("lobby.default_table", { name: name || "…" }), "data-testid": "table-name" })),
      h("label", { class: "field" }, t("lobby.preset"),
        select("preset", presets.map((p) => [p, t(`preset.${p}`)]), v("preset", "perudo"), "preset")),
      h("div", { class: "grid2" },
        h("label", { class: "field" }, t("lobby.calza"),
          select("calza", [["", t("opt.default")], ["off", t("opt.off")], ["on", t("opt.on")], ["to_act", t("opt.to_act")]], v("calza", ""), "calza")),
        h("label", { class: "field" }, t("lobby.palifico"),
          select("palifico", [["", t("opt.default")], ["on", t("opt.on")], ["off", t("opt.off")], ["not_two_players", t("opt.not_two_players")]], v("palifico", ""), "palifico"))),
      h("div", { class: "grid2" },
        h("label", { class: "field" }, t("lobby.dice"),
          select("dice", range(1, 10).map((n) => [n, String(n)]), v("dice", 5), "dice")),
        h("label", { class: "field" }, t("lobby.seats"),
          select("seats", range(2, 10).map((n) => [n, String(n)]), v("seats", 4), "seats"))),
      h("label", { class: "field" }, t("lobby.timer"),
        select("turn_seconds", [[0, t("opt.no_timer")], ...[20, 30, 45, 60, 90, 120].map((n) => [n, t("opt.seconds", { n })])], v("turn_seconds", this.config ? this.config.turn_seconds : 60), "timer")),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "memory", checked: v("memory", null) === "on", "data-testid": "memory" }), t("lobby.memory")),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "private", checked: v("private", null) === "on", "data-testid": "private" }), t("lobby.private")),
      h("button", { class: "btn primary big", type: "submit", "data-testid": "create" }, t("lobby.create_btn")),
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.create(new FormData(form));
    });
    return form;
  }

  async create(fd) {
    const player = String(fd.get("player") || "").trim();
    localStorage.setItem("perudo.name", player);
    const body = {
      player,
      name: String(fd.get("name") || "").trim() || t("lobby.default_table", { name: player }),
      preset: fd.get("preset"),
      dice: Number(fd.get("dice")),
      seats: Number(fd.get("seats")),
      turn_seconds: Number(fd.get("turn_seconds")),
      memory: fd.get("memory") === "on",
      private: fd.get("private") === "on",
    };
    if (fd.get("calza")) body.calza = fd.get("calza");
    if (fd.get("palifico")) body.palifico = fd.get("palifico");
    try {
      const out = await api("POST", "/api/tables", body);
      localStorage.setItem(tokenKey(out.table_id), out.token);
      navigate(out.invite);
    } catch (e) {
      toast(t("error.generic", { message: e.message }));
    }
  }
}

// ---------------------------------------------------------------- the felt (shared by table and replay)

// The server names bots "Easy bot 1", "Hard bot 2"…; show those names in the page's language.
function displayName(name) {
  const m = /^(Easy|Medium|Hard) bot (\d+)$/.exec(name || "");
  return m ? t("table.bot_name", { level: t(`level.${m[1].toLowerCase()}`), n: m[2] }) : name;
}

function seatName(table, names, i) {
  if (table && table.seats && table.seats[i]) return displayName(table.seats[i].name);
  if (names && names[i]) return displayName(names[i]);
  return `#${i + 1}`;
}

function renderFelt(view, opts) {
  const { table, names, me } = opts;
  const n = view.dice_counts.length;
  const bottom = me === null || me === undefined ? 0 : me;
  const felt = h("div", { class: "felt", "data-testid": "felt" });
  const lastBySeat = {};
  for (const [s, a] of view.actions) lastBySeat[s] = a;
  for (let i = 0; i < n; i++) {
    const rel = (i - bottom + n) % n;
    const ang = Math.PI / 2 + (rel * 2 * Math.PI) / n;
    const x = 50 + 41 * Math.cos(ang);
    const y = 50 + 37 * Math.sin(ang);
    const count = view.dice_counts[i];
    const info = table && table.seats ? table.seats[i] : null;
    const out = count === 0;
    const cups = h("div", { class: "cups", "data-count": count === null ? "?" : count });
    if (count === null) cups.append(icon("cup"), h("span", { class: "count" }, "?"));
    else if (count > 6) cups.append(hiddenDie("xs"), h("span", { class: "count" }, `× ${count}`));
    else for (let k = 0; k < count; k++) cups.append(hiddenDie("xs"));
    const shown = (view.shown && view.shown[i]) || [];
    for (const d of shown) cups.append(die(d, "xs"));
    const last = lastBySeat[i];
    let bubble = null;
    if (last) {
      if (last === "dudo") bubble = h("span", { class: "bubble dudo" }, t("word.dudo") + "!");
      else if (last === "calza") bubble = h("span", { class: "bubble calza" }, t("word.calza") + "!");
      else if (parseBid(last)) bubble = h("span", { class: "bubble" }, bidEl(last, "xs"));
      else bubble = h("span", { class: "bubble" }, last);
    }
    const status = h("div", { class: "status" });
    if (view.to_act === i) status.append(h("span", { class: "pill gold" }, t("seat.to_act")));
    if (info && info.kind === "bot") status.append(h("span", { class: "pill" }, `${t("seat.bot")} · ${t(`level.${info.level}`)}`));
    if (info && info.away) status.append(h("span", { class: "pill red" }, t("seat.away")));
    else if (info && info.kind === "human" && !info.connected) status.append(h("span", { class: "pill" }, t("seat.offline")));
    if (out) status.append(h("span", { class: "pill" }, t("seat.out")));
    const name = seatName(table, names, i);
    felt.append(
      h("div", {
        class: `seat ${i === me ? "me" : ""} ${view.to_act === i ? "toact" : ""} ${out ? "out" : ""}`,
        style: `left:${x}%;top:${y}%`,
        "data-seat": i,
      },
        h("div", { class: "who" },
          h("span", { class: "avatar", style: `background:${SEAT_COLORS[i % SEAT_COLORS.length]}` }, info && info.kind === "bot" ? icon("bot") : name.slice(0, 1).toUpperCase()),
          h("span", { class: "nm", title: name }, name),
          i === me ? h("span", { class: "muted" }, `(${t("seat.you")})`) : null),
        out ? null : cups,
        h("div", { class: "last" }, bubble),
        status),
    );
  }
  const center = h("div", { class: "centerpiece" },
    h("div", { class: "round" }, t("game.round", { n: view.round })));
  if (view.bid) {
    const b = parseBid(view.bid);
    center.append(
      h("div", { class: "bid", "data-testid": "current-bid" }, h("span", {}, b.q), h("span", { class: "x" }, "×"), die(b.f, "lg")),
      h("div", { class: "by" }, t("game.by", { name: seatName(table, names, view.bidder) })));
  } else if (view.phase === "bidding") {
    center.append(h("div", { class: "nobid" }, t("game.no_bid")),
      h("div", { class: "by" }, t("game.opens", { name: seatName(table, names, view.to_act) })));
  } else if (view.phase === "deal" || view.phase === "reroll") {
    center.append(h("div", { class: "nobid" }, t("game.dealing")));
  } else if (view.phase === "choose_palifico") {
    center.append(h("div", { class: "nobid" }, t("word.palifico") + "?"),
      h("div", { class: "by" }, seatName(table, names, view.to_act)));
  } else if (view.phase === "game_over" && view.winner !== null) {
    center.append(h("div", { class: "nobid" }, icon("trophy"), " ", t("over.winner", { name: seatName(table, names, view.winner) })));
  }
  const total = view.total_dice !== undefined ? view.total_dice : view.dice_counts.reduce((a, b) => a + (b || 0), 0);
  const badges = h("div", { class: "badges" }, h("span", { class: "pill" }, t("game.total_dice", { n: total })));
  if (view.palifico) badges.append(h("span", { class: "pill gold" }, t("game.palifico_round")));
  if (table && table.memory) badges.append(h("span", { class: "pill" }, t("game.memory")));
  center.append(badges);
  felt.append(center);
  return felt;
}

function renderReveal(res, table, names, onClose) {
  const bid = parseBid(res.bid);
  const name = (i) => seatName(table, names, i);
  let title;
  if (res.kind === "dudo") title = t("reveal.dudo", { caller: name(res.caller), target: name(res.target), bid: res.bid ? `${bid.q} × ${bid.f}` : "" });
  else if (res.kind === "calza") title = t("reveal.calza", { caller: name(res.caller), bid: res.bid ? `${bid.q} × ${bid.f}` : "" });
  else title = t("reveal.pass", { caller: name(res.caller), target: name(res.target) });
  const list = h("div", { class: "reveal-list", "data-testid": "reveal-list" });
  let running = 0;
  res.reveals.forEach((r, k) => {
    running += r.count;
    // The server says how many of these dice count (P-15/P-31 are the core's business).
    const dice = r.hand.map((d) => die(d, "md"));
    list.append(h("div", { class: "reveal-row", style: `animation-delay:${k * 0.45}s`, "data-seat": r.seat },
      h("span", { class: "nm" }, name(r.seat)), h("div", { class: "dice" }, dice),
      h("span", { class: "muted" }, bid ? `+${r.count}` : ""),
      h("span", { class: "run" }, bid ? `${running}` : "")));
  });
  for (const s of res.hidden) {
    list.append(h("div", { class: "reveal-row hiddenhand", style: `animation-delay:${res.reveals.length * 0.45}s`, "data-seat": s, "data-hidden": "1" },
      h("span", { class: "nm" }, name(s)), h("div", { class: "dice" }, hiddenDie("md")), h("span", {}, t("reveal.hidden"))));
  }
  let verdict;
  if (res.kind === "calza") verdict = res.holds ? t("reveal.calza_ok") : t("reveal.calza_bad");
  else if (res.kind === "pass") verdict = res.holds ? t("reveal.pass_true") : t("reveal.pass_false");
  else verdict = res.holds ? t("reveal.holds") : t("reveal.fails");
  const changes = h("div", { class: "changes" });
  for (const [s, d] of res.changes) {
    if (d < 0) changes.append(h("span", { class: "pill red" }, Math.abs(d) === 1 ? t("reveal.loses", { name: name(s), n: 1 }) : t("reveal.loses_many", { name: name(s), n: -d })));
    else changes.append(h("span", { class: "pill teal" }, t("reveal.gains", { name: name(s) })));
  }
  for (const s of res.eliminated) changes.append(h("span", { class: "pill" }, t("reveal.out", { name: name(s) })));
  return h("div", { class: onClose ? "modal" : "modal static", "data-testid": "reveal" },
    h("h2", {}, res.kind === "calza" ? icon("target") : die(5, "sm"), title),
    bid ? h("div", { class: "muted" }, t("reveal.count", { count: res.count, q: bid.q })) : null,
    list,
    h("div", { class: `verdict ${res.holds ? "good" : "bad"}` }, verdict),
    changes,
    onClose ? h("div", { class: "row", style: "justify-content:flex-end" },
      h("button", { class: "btn primary", onclick: onClose, "data-testid": "reveal-ok" }, t("reveal.close"))) : null);
}

function renderRoundLog(view, table, names) {
  const log = h("div", { class: "log", "data-testid": "round-log" });
  for (const [s, a] of view.actions) log.append(h("div", { class: "entry" }, ...actionText(seatName(table, names, s), a)));
  if (!view.actions.length) log.append(h("div", { class: "muted" }, "—"));
  return log;
}

function renderHistory(past, table, names) {
  if (!past || !past.length) return null;
  return h("details", { class: "history" },
    h("summary", {}, `${t("game.history")} (${past.length})`),
    ...past.slice().reverse().map((r) => {
      const res = r.result;
      const who = (i) => seatName(table, names, i);
      const ch = res.changes.map(([s, d]) => `${who(s)} ${d > 0 ? "+" : ""}${d}`).join(", ");
      return h("div", { class: "histround" },
        h("b", {}, t("game.round", { n: r.round })), " · ",
        res.bid ? bidEl(res.bid, "xs") : "", " · ",
        res.kind === "dudo" ? t("word.dudo") : res.kind === "calza" ? t("word.calza") : t("btn.pass"),
        " ", who(res.caller), " · ", ch);
    }));
}

// ---------------------------------------------------------------- table

class TablePage {
  constructor(id) {
    this.id = id;
    this.token = localStorage.getItem(tokenKey(id));
    this.ws = null;
    this.version = null;
    this.seat = null;
    this.table = null;
    this.view = null;
    this.past = [];
    this.hint = null;
    this.chat = [];
    this.reveals = [];
    this.showAll = false;
    this.closed = false;
    this.retry = 0;
    this.retryTimer = null;
    this.beat = null;
    this.deadline = null;
    this.timerEnd = null;
    this.tick = null;
    this.revealTimer = null;
  }

  start() {
    this.render();
    this.connect();
    this.tick = setInterval(() => this.updateTimer(), 500);
  }

  destroy() {
    this.closed = true;
    clearInterval(this.tick);
    clearTimeout(this.revealTimer);
    clearTimeout(this.retryTimer);
    this.stopHeartbeat();
    if (this.ws) this.ws.close();
  }

  connect() {
    if (this.closed) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${this.id}`);
    this.ws = ws;
    ws.onopen = () => {
      const hello = { type: "hello", token: this.token || null };
      if (this.version !== null) hello.last_version = this.version;
      ws.send(JSON.stringify(hello));
      if (this.retry > 0) toast(t("conn.back"), true);
      this.retry = 0;
      this.startHeartbeat(ws);
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
      this.heard();
      this.onMessage(JSON.parse(e.data));
    };
    ws.onclose = () => this.lost(ws);
  }

  // The connection `ws` is gone: say so once, and try again (the hello then carries the last
  // version seen, and the server sends what was missed).
  lost(ws) {
    if (this.ws !== ws) return;
    this.stopHeartbeat();
    this.ws = null;
    if (this.closed) return;
    if (this.retry === 0) toast(t("conn.lost"));
    this.retry += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), Math.min(5000, 300 * this.retry));
  }

  // While `ws` is open: a ping every HEARTBEAT.interval ms; the first ping that nothing answers
  // (no message at all) within HEARTBEAT.timeout ms ends the socket.
  startHeartbeat(ws) {
    this.stopHeartbeat();
    this.beat = setInterval(() => {
      if (this.ws !== ws || ws.readyState !== WebSocket.OPEN) return;
      ws.send(JSON.stringify({ type: "ping" }));
      if (this.deadline === null) this.deadline = setTimeout(() => this.dead(ws), HEARTBEAT.timeout);
    }, HEARTBEAT.interval);
  }

  // Something came from the server: the connection is alive.
  heard() {
    clearTimeout(this.deadline);
    this.deadline = null;
  }

  stopHeartbeat() {
    clearInterval(this.beat);
    clearTimeout(this.deadline);
    this.beat = null;
    this.deadline = null;
  }

  // Silence since a ping: the socket is dead though nothing closed it. Lost now (its close,
  // whenever it comes, is then ignored), and closed.
  dead(ws) {
    this.deadline = null;
    if (this.ws !== ws) return;
    this.lost(ws);
    ws.close();
  }

  offline() {
    const ws = this.ws;
    if (!ws) return;
    this.lost(ws);
    ws.close();
  }

  // The network is back: try now rather than at the end of the back-off (an attempt started
  // while offline is dropped: it can only fail).
  online() {
    if (this.closed || this.retry === 0) return;
    const ws = this.ws;
    this.ws = null;
    this.stopHeartbeat();
    if (ws) ws.close();
    clearTimeout(this.retryTimer);
    this.connect();
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  act(action) {
    this.send({ type: "act", action, version: this.version });
  }

  onMessage(m) {
    if (m.type === "pong") {
      // A pong carries the table's version, not its changes: it does not move the page's
      // version. Ahead of the page, something was missed: `sync` asks for it (the server answers
      // as to a resume: an update with the events since that version and the whole view, then
      // the chat lines since; or a snapshot if the gap is too old). A pong can also overtake a
      // broadcast still being written; the sync's answer then repeats what the page has, which
      // is skipped below (events and chat lines by version).
      if (this.version !== null && m.version > this.version) this.send({ type: "sync", last_version: this.version });
      return;
    }
    const seen = this.version;
    if (m.version !== undefined && m.version !== null && m.type !== "error") this.version = Math.max(this.version || 0, m.version);
    switch (m.type) {
      case "snapshot":
        this.table = m.table;
        this.seat = m.seat;
        this.view = m.view;
        this.past = m.view ? m.view.past : [];
        this.hint = m.hint;
        this.chat = m.chat;
        this.setTimer(m.timer);
        this.reveals = [];
        break;
      case "update":
        for (const e of m.events) {
          if (e.type === "round_resolved" && (seen === null || !(e.version <= seen))) this.reveals.push(e);
        }
        if (m.view) {
          if (m.view.past) this.past = m.view.past;
          else if (m.past_tail) this.past = this.past.concat(m.past_tail);
          this.view = m.view;
          this.seat = m.view.seat;
        }
        this.hint = m.hint;
        this.setTimer(m.timer);
        if (this.reveals.length) this.armRevealTimer();
        break;
      case "table":
        this.table = m.table;
        this.setTimer(m.table.turn_remaining);
        if (m.table.status === "open" && this.view && this.view.phase === "game_over") {
          this.view = null;
          this.past = [];
        }
        break;
      case "chat":
        if (this.chat.some((c) => c.version === m.entry.version)) return;
        this.chat.push(m.entry);
        this.renderChat();
        return;
      case "error":
        if (m.code === "no_table") {
          this.closed = true;
          document.getElementById("app").replaceChildren(h("div", { class: "card" },
            h("h2", {}, t("table.missing")), h("a", { class: "btn primary", href: "/", "data-link": true }, t("over.lobby"))));
          return;
        }
        if (m.code === "bad_token") {
          localStorage.removeItem(tokenKey(this.id));
          this.token = null;
        }
        toast(m.message);
        return;
      default:
        return;
    }
    this.render();
  }

  setTimer(seconds) {
    this.timerEnd = seconds === null || seconds === undefined ? null : Date.now() + seconds * 1000;
  }

  armRevealTimer() {
    clearTimeout(this.revealTimer);
    this.revealTimer = setTimeout(() => {
      this.reveals = [];
      this.render();
    }, 9000);
  }

  updateTimer() {
    const el = document.querySelector("[data-testid=timer]");
    if (!el || this.timerEnd === null || !this.table) return;
    const left = Math.max(0, (this.timerEnd - Date.now()) / 1000);
    const frac = this.table.turn_seconds ? left / this.table.turn_seconds : 0;
    el.querySelector("div").style.width = `${Math.round(frac * 100)}%`;
    const label = document.querySelector("[data-testid=timer-label]");
    if (label) label.textContent = t("game.timer", { n: Math.ceil(left) });
  }

  render() {
    const app = document.getElementById("app");
    if (!this.table) {
      app.replaceChildren(h("div", { class: "card muted" }, "…"));
      return;
    }
    const tb = this.table;
    const main = h("div", { class: "main" });
    if (tb.status === "open" || !this.view) main.append(this.renderSeats());
    else main.append(...this.renderGame());
    const side = h("div", { class: "side" });
    if (this.view && tb.status !== "open") {
      side.append(h("section", { class: "card" }, h("h2", {}, t("game.this_round")), renderRoundLog(this.view, tb), renderHistory(this.past, tb)));
    }
    side.append(this.chatCard());
    app.replaceChildren(this.renderHead(), h("div", { class: "tablepage" }, main, side));
    this.renderChat();
    this.renderOverlays();
    this.updateTimer();
  }

  renderHead() {
    const tb = this.table;
    const r = tb.rules;
    const link = tb.invite_url || `${location.origin}${tb.invite}`;
    const input = h("input", { value: link, readonly: true, "data-testid": "invite-link", onclick: (e) => e.target.select() });
    return h("div", { class: "tablehead" },
      h("h1", {}, tb.name),
      h("span", { class: tb.status === "playing" ? "pill gold" : "pill teal", "data-testid": "status" }, t(`status.${tb.status}`)),
      h("span", { class: "pill" }, t(`preset.${tb.preset}`)),
      h("span", { class: "pill" }, `${r.dice_per_player} × ${t("lobby.dice").toLowerCase()}`),
      r.calza !== "off" ? h("span", { class: "pill" }, `${t("word.calza")}: ${t(`opt.${r.calza}`)}`) : null,
      r.palifico !== "off" ? h("span", { class: "pill" }, t("word.palifico")) : null,
      tb.memory ? h("span", { class: "pill" }, t("game.memory")) : null,
      tb.turn_seconds ? h("span", { class: "pill" }, icon("clock"), t("opt.seconds", { n: tb.turn_seconds })) : null,
      tb.spectators ? h("span", { class: "pill" }, icon("eye"), t("seat.spectators", { n: tb.spectators })) : null,
      h("div", { class: "invite" }, h("span", { class: "muted" }, t("table.invite")), input,
        h("button", {
          class: "btn small", "data-testid": "copy-invite",
          onclick: () => {
            input.select();
            (navigator.clipboard ? navigator.clipboard.writeText(link) : Promise.reject()).then(
              () => toast(t("table.copied"), true), () => document.execCommand && document.execCommand("copy"));
          },
        }, t("table.copy"))));
  }

  renderSeats() {
    const tb = this.table;
    const seated = this.seat !== null;
    const list = h("div", { class: "seatlist", "data-testid": "seats" });
    tb.seats.forEach((s, i) => {
      if (!s) {
        list.append(h("div", { class: "seatrow emptyseat", "data-seat": i },
          h("span", { class: "avatar", style: "background:#33436d;color:#9aa6c4" }, i + 1),
          h("span", { class: "grow" }, t("table.seat_empty")),
          seated ? this.botPicker(i) : null));
        return;
      }
      list.append(h("div", { class: "seatrow", "data-seat": i },
        h("span", { class: "avatar", style: `background:${SEAT_COLORS[i % SEAT_COLORS.length]}` }, s.kind === "bot" ? icon("bot") : s.name.slice(0, 1).toUpperCase()),
        h("span", { class: "grow" }, h("span", { class: "nm" }, displayName(s.name)), " ",
          i === this.seat ? h("span", { class: "muted" }, `(${t("seat.you")})`) : null, " ",
          s.kind === "bot" ? h("span", { class: "pill" }, `${t("seat.bot")} · ${t(`level.${s.level}`)}`) : null,
          s.kind === "human" && !s.connected ? h("span", { class: "pill" }, t("seat.offline")) : null),
        seated && s.kind === "bot" && tb.status === "open"
          ? h("button", { class: "btn small", onclick: () => this.send({ type: "remove_seat", seat: i }) }, t("table.remove")) : null,
        i === this.seat && tb.status === "open"
          ? h("button", { class: "btn small", "data-testid": "leave", onclick: () => this.leave() }, t("table.leave")) : null));
    });
    const card = h("section", { class: "card" }, h("h2", {}, t("table.players")), list);
    const taken = tb.seats.filter(Boolean).length;
    if (seated && tb.status === "open") {
      const level = h("select", { "data-testid": "fill-level" }, ...["easy", "medium", "hard"].map((l) => h("option", { value: l, selected: l === "medium" }, t(`level.${l}`))));
      card.append(h("div", { class: "row", style: "margin-top:16px" },
        level,
        h("button", { class: "btn", "data-testid": "fill-bots", disabled: taken >= tb.seats.length, onclick: () => this.send({ type: "fill_bots", level: level.value }) }, t("table.fill_bots")),
        h("div", { class: "spacer" }),
        h("button", { class: "btn primary big", "data-testid": "start", disabled: taken < 2, onclick: () => this.send({ type: "start" }) }, t("table.start"))));
      if (taken < 2) card.append(h("p", { class: "muted" }, t("table.need_two")));
    } else if (!seated && tb.status === "open" && taken < tb.seats.length) {
      const nameInput = h("input", { type: "text", maxlength: 24, value: localStorage.getItem("perudo.name") || "", "data-testid": "join-name", placeholder: t("lobby.your_name") });
      card.append(h("form", {
        class: "row", style: "margin-top:16px",
        onsubmit: (e) => {
          e.preventDefault();
          this.join(nameInput.value);
        },
      }, h("label", { class: "field", style: "flex:1" }, t("table.join_title"), nameInput),
      h("button", { class: "btn primary", type: "submit", "data-testid": "join", style: "align-self:flex-end" }, t("table.join_btn"))));
    } else if (!seated) {
      card.append(h("p", { class: "muted" }, t("table.spectating")));
    }
    if (seated && tb.status === "open") card.append(h("p", { class: "muted" }, t("table.waiting")));
    return card;
  }

  botPicker(i) {
    return h("span", { class: "row" },
      ...["easy", "medium", "hard"].map((l) =>
        h("button", { class: "btn small", "data-testid": `add-bot-${l}`, onclick: () => this.send({ type: "add_bot", level: l, seat: i }) }, `+ ${t(`level.${l}`)}`)));
  }

  async join(name) {
    name = name.trim();
    if (!name) return;
    localStorage.setItem("perudo.name", name);
    try {
      const out = await api("POST", `/api/tables/${this.id}/join`, { name });
      localStorage.setItem(tokenKey(this.id), out.token);
      this.token = out.token;
      this.send({ type: "hello", token: out.token });
    } catch (e) {
      toast(t("error.generic", { message: e.message }));
    }
  }

  leave() {
    this.send({ type: "leave" });
    localStorage.removeItem(tokenKey(this.id));
    this.token = null;
  }

  renderGame() {
    const v = this.view;
    const tb = this.table;
    const me = this.seat;
    const out = [renderFelt(v, { table: tb, me })];
    const panel = h("section", { class: "card panel", "data-testid": "panel" });
    const info = me !== null ? tb.seats[me] : null;
    if (info && info.away && v.phase !== "game_over") {
      panel.append(h("div", { class: "banner", style: "margin-bottom:12px" }, t("game.away_banner"),
        h("button", { class: "btn small primary", "data-testid": "back", onclick: () => this.send({ type: "back" }) }, t("game.back"))));
    }
    if (me !== null) {
      const hand = v.hand.length ? v.hand.map((d) => die(d, "lg")) : v.dice_counts[me] && v.phase !== "game_over" ? Array.from({ length: v.dice_counts[me] }, () => hiddenDie("lg")) : [];
      panel.append(h("div", { class: "myhand" }, h("span", { class: "label" }, t("game.your_dice")), h("div", { class: "dice", "data-testid": "my-hand" }, hand),
        this.hint ? h("span", { class: "hint", "data-testid": "hint" }, t("game.hint", { bid: this.hint.bid.replace("x", " × "), holds: pct(this.hint.holds), exact: pct(this.hint.exact) })) : null));
    } else {
      panel.append(h("p", { class: "muted" }, t("table.spectating")));
    }
    const turn = h("div", { class: "turnline" });
    if (v.phase !== "game_over" && v.to_act !== null) {
      if (v.to_act === me) turn.append(h("span", { class: "yourturn", "data-testid": "your-turn" }, t("game.your_turn")));
      else turn.append(h("span", { class: "muted" }, t("game.waiting_for", { name: seatName(tb, null, v.to_act) })));
      if (this.timerEnd !== null && tb.turn_seconds) {
        turn.append(h("div", { class: "timerbar", "data-testid": "timer" }, h("div", { style: "width:100%" })), h("span", { class: "muted", "data-testid": "timer-label" }, ""));
      }
    }
    panel.append(turn);
    if (me !== null && v.legal.length) panel.append(this.renderActions(v));
    out.push(panel);
    return out;
  }

  renderActions(v) {
    const box = h("div", { class: "actions", "data-testid": "actions" });
    const bids = [];
    const other = [];
    for (const a of v.legal) (parseBid(a) ? bids : other).push(a);
    if (v.phase === "choose_palifico") box.append(h("div", { class: "banner" }, t("game.choose_palifico")));
    const big = h("div", { class: "bigactions" });
    for (const a of other) {
      let btn;
      if (a === "dudo") btn = h("button", { class: "btn danger big" }, t("btn.dudo"));
      else if (a === "calza") btn = h("button", { class: "btn teal big" }, t("btn.calza"));
      else if (a === "pass") btn = h("button", { class: "btn big" }, t("btn.pass"));
      else if (a === "palifico") btn = h("button", { class: "btn primary big" }, t("btn.palifico"));
      else if (a === "normal") btn = h("button", { class: "btn big" }, t("btn.normal"));
      else if (a.startsWith("aside ")) btn = h("button", { class: "btn" }, t("game.set_aside", { dice: "" }), ...[...a.slice(6)].map((d) => die(Number(d), "xs")));
      else btn = h("button", { class: "btn" }, a);
      btn.dataset.action = a;
      btn.addEventListener("click", () => this.act(a));
      big.append(btn);
    }
    if (bids.length) {
      const byFace = new Map();
      for (const a of bids) {
        const b = parseBid(a);
        if (!byFace.has(b.f)) byFace.set(b.f, []);
        byFace.get(b.f).push(a);
      }
      const grid = h("div", { class: "bidgrid", "data-testid": "bids" });
      const limit = this.showAll ? Infinity : 6;
      let hidden = 0;
      for (const f of [...byFace.keys()].sort((a, b) => a - b)) {
        const list = byFace.get(f);
        hidden += Math.max(0, list.length - limit);
        grid.append(h("div", { class: "facerow" }, h("span", { class: "face" }, die(f, "md")),
          ...list.slice(0, limit).map((a, k) => {
            const b = parseBid(a);
            return h("button", { class: `bidbtn ${k === 0 ? "first" : ""}`, "data-action": a, title: `${b.q} × ${b.f}`, onclick: () => this.act(a) }, `${b.q}×`);
          })));
      }
      if (hidden || this.showAll) {
        grid.append(h("div", {}, h("button", {
          class: "btn small", "data-testid": "more-bids",
          onclick: () => { this.showAll = !this.showAll; this.render(); },
        }, this.showAll ? t("game.fewer") : `${t("game.more")} (+${hidden})`)));
      }
      box.append(h("div", { class: "muted", style: "font-size:13px;text-transform:uppercase;letter-spacing:1px" }, t("game.raise")), grid);
    }
    if (other.length) box.append(big);
    return box;
  }

  chatCard() {
    this.chatLines = h("div", { class: "chatlines", "data-testid": "chat-lines" });
    const input = h("input", { type: "text", maxlength: 300, placeholder: t("chat.placeholder"), "data-testid": "chat-input" });
    return h("section", { class: "card chatbox" }, h("h2", {}, t("chat.title")), this.chatLines,
      h("form", {
        class: "chatform",
        onsubmit: (e) => {
          e.preventDefault();
          const text = input.value.trim();
          if (text) this.send({ type: "chat", text });
          input.value = "";
        },
      }, input, h("button", { class: "btn", type: "submit", "data-testid": "chat-send" }, t("chat.send"))));
  }

  renderChat() {
    if (!this.chatLines) return;
    this.chatLines.replaceChildren(...this.chat.map((c) =>
      h("div", { class: `ln ${c.seat === null ? "spect" : ""}` }, h("b", {}, c.seat === null ? t("chat.spectator") : displayName(c.name)), c.text)));
    this.chatLines.scrollTop = this.chatLines.scrollHeight;
  }

  renderOverlays() {
    const tb = this.table;
    if (this.reveals.length) {
      const res = this.reveals[this.reveals.length - 1];
      document.getElementById("app").append(h("div", { class: "overlay", onclick: (e) => { if (e.target === e.currentTarget) this.closeReveal(); } },
        renderReveal(res, tb, null, () => this.closeReveal())));
      return;
    }
    if (this.view && this.view.phase === "game_over" && this.view.winner !== null) {
      const v = this.view;
      const won = v.winner === this.seat;
      // Standings from the public record: the winner, then the others by the round they went out.
      const outIn = {};
      for (const r of this.past) for (const s of r.result.eliminated) outIn[s] = r.round;
      const order = v.dice_counts.map((_, i) => i).sort((a, b) => (a === v.winner ? -1 : b === v.winner ? 1 : (outIn[b] || 0) - (outIn[a] || 0)));
      document.getElementById("app").append(h("div", { class: "overlay" },
        h("div", { class: "modal over", "data-testid": "game-over" },
          h("div", { class: "trophy" }, icon("trophy")),
          h("h2", {}, t("over.title")),
          h("div", { class: "winner", "data-testid": "winner" }, won ? t("over.you_win") : t("over.winner", { name: seatName(tb, null, v.winner) })),
          h("div", { class: "standings" }, order.map((i, k) => h("div", { class: i === v.winner ? "first" : "" },
            h("span", {}, `${k + 1}. `, seatName(tb, null, i), i === this.seat ? ` (${t("seat.you")})` : ""),
            h("span", { class: "muted" }, i === v.winner ? h("span", { class: "dice" }, Array.from({ length: v.dice_counts[i] || 1 }, () => hiddenDie("xs"))) : outIn[i] ? t("over.out_in", { n: outIn[i] }) : "—")))),
          h("div", { class: "row" },
            this.seat !== null ? h("button", { class: "btn primary", "data-testid": "rematch", onclick: () => this.send({ type: "rematch" }) }, t("over.rematch")) : null,
            tb.game_id ? h("a", { class: "btn", href: `/replay/${tb.game_id}`, "data-link": true, "data-testid": "replay-link" }, t("over.replay")) : null,
            h("a", { class: "btn", href: "/", "data-link": true }, t("over.lobby"))))));
    }
  }

  closeReveal() {
    this.reveals = [];
    clearTimeout(this.revealTimer);
    this.render();
  }
}

// ---------------------------------------------------------------- replay

class ReplayPage {
  constructor(gameId) {
    this.gameId = gameId;
    this.data = null;
    this.i = 0;
    this.playing = null;
  }

  async start() {
    document.getElementById("app").replaceChildren(h("div", { class: "card muted" }, "…"));
    try {
      this.data = await api("GET", `/api/games/${this.gameId}/replay`);
    } catch (e) {
      document.getElementById("app").replaceChildren(h("div", { class: "card" }, t("error.generic", { message: e.message })));
      return;
    }
    this.render();
  }

  destroy() {
    clearInterval(this.playing);
  }

  go(i) {
    if (!this.data) return;
    this.i = Math.max(0, Math.min(this.data.frames.length - 1, i));
    this.render();
  }

  toggle() {
    if (this.playing) {
      clearInterval(this.playing);
      this.playing = null;
    } else {
      this.playing = setInterval(() => {
        if (this.i >= this.data.frames.length - 1) this.toggle();
        else this.go(this.i + 1);
      }, 900);
    }
    this.render();
  }

  render() {
    if (!this.data) return;
    const d = this.data;
    const frame = d.frames[this.i];
    const total = d.frames.length - 1;
    const names = d.names;
    const move = frame.move;
    let moveEl;
    if (!move) moveEl = t("replay.start");
    else if (move.seat === null) moveEl = move.action === "deal" ? t("replay.deal") : t("replay.reroll");
    else moveEl = actionText(displayName(names[move.seat]), move.action);
    const slider = h("input", { type: "range", min: 0, max: total, value: this.i, "data-testid": "replay-slider", oninput: (e) => this.go(Number(e.target.value)) });
    const bar = h("div", { class: "replaybar" },
      h("button", { class: "btn", onclick: () => this.go(0), title: t("replay.start") }, "|◀"),
      h("button", { class: "btn", onclick: () => this.go(this.i - 1), "data-testid": "replay-prev" }, "◀"),
      h("button", { class: "btn primary", onclick: () => this.toggle(), "data-testid": "replay-play" }, this.playing ? t("replay.pause") : t("replay.play")),
      h("button", { class: "btn", onclick: () => this.go(this.i + 1), "data-testid": "replay-next" }, "▶"),
      h("button", { class: "btn", onclick: () => this.go(total), "data-testid": "replay-end" }, "▶|"),
      slider,
      h("span", { class: "muted", "data-testid": "replay-pos" }, t("replay.move", { n: this.i, total })));
    const view = frame.view;
    const resolved = frame.events.find((e) => e.type === "round_resolved");
    const main = h("div", {},
      h("div", { class: "tablehead" }, h("h1", {}, `${t("replay.title")} #${d.game_id}`),
        d.winner !== null ? h("span", { class: "pill gold" }, t("lobby.won", { name: displayName(names[d.winner]) })) : null),
      h("section", { class: "card" }, bar, h("div", { class: "movebox", "data-testid": "replay-move" }, moveEl)),
      renderFelt(view, { names, me: null, table: { rules: view.rules, seats: null, memory: false } }),
      resolved ? renderReveal(resolved, { rules: view.rules }, names, null) : null);
    const side = h("div", { class: "side" },
      h("section", { class: "card" }, h("h2", {}, t("game.this_round")), renderRoundLog(view, null, names)));
    document.getElementById("app").replaceChildren(h("div", { class: "tablepage" }, main, side));
  }
}

// ---------------------------------------------------------------- start

setLang(detectLang());
renderChrome();
route();
window.__perudo = { t, MESSAGES, LANGS };
