// The lobby: open tables (refreshed every 3 s; what is typed in the form survives), finished
// games, and the form that creates a table.

import { html, useState, useEffect, api, tokenKey } from "../lib.js";
import { t } from "../i18n.js";
import { Die } from "../components/dice.js";
import { Icon, NAME_MAX, NameInput, displayName, nameTooLong, toast } from "../components/common.js";
import { Field, Select, oddsChoices, timerChoices, vacatedChoices } from "../components/options.js";
import { refusalText } from "../refusals.js";
import { PlayNow } from "../components/playnow.js";
import { FriendsCard } from "../components/friends.js";

function TableList({ tables }) {
  if (!tables.length) return html`<div class="empty">${t("lobby.none")}</div>`;
  return html`<ul class="tables" data-testid="table-list">
    ${tables.map((tb) => {
      const full = tb.taken >= tb.seat_count || tb.status !== "open";
      return html`<li class="tablecard" key=${tb.id} data-table=${tb.id}>
        <div class="grow">
          <div class="name">${tb.name}</div>
          <div class="meta">
            <span class="pill gold">${t(`preset.${tb.preset}`)}</span>
            <span class="pill">${t("lobby.dice_each", { n: tb.dice })}</span>
            <span class="pill">${t("lobby.seats_taken", { taken: tb.taken, total: tb.seat_count })}</span>
            <span class=${tb.status === "open" ? "pill teal" : "pill"}>${t(`status.${tb.status}`)}</span>
          </div>
          <div class="players">${tb.players.map((name, i) => {
            const bot = (tb.bots || [])[i];
            const mark = bot ? html`<span class="botmark" data-testid="lobby-bot" title=${t(bot === "account" ? "seat.bot_account_long" : "seat.bot")}><${Icon} name="bot" /><span class="sr-only">${t("seat.bot")} </span></span>` : null;
            return html`${i ? " · " : ""}<span class="player">${mark}${displayName(name)}</span>`;
          })}</div>
        </div>
        <a class=${full ? "btn" : "btn primary"} href=${tb.invite} data-link>${full ? t("lobby.watch") : t("lobby.join")}<span class="sr-only"> ${tb.name}</span></a>
      </li>`;
    })}
  </ul>`;
}

function GameList({ games }) {
  if (!games.length) return html`<div class="muted">${t("lobby.no_games")}</div>`;
  return html`<ul class="games" data-testid="game-list">
    ${games.slice(0, 12).map((g) => html`<li class="gamerow" key=${g.id}>
      <span><b>${g.table_name}</b> · ${g.names.map(displayName).join(", ")}</span>
      <span>${g.winner !== null ? html`<span class="muted">${t("lobby.won", { name: displayName(g.names[g.winner]) })} · </span>` : ""}
        <a href=${`/replay/${g.id}`} data-link>${t("nav.replays")}<span class="sr-only"> #${g.id}</span></a></span>
    </li>`)}
  </ul>`;
}

const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

function CreateForm({ config, navigate }) {
  const name = localStorage.getItem("perudo.name") || "";
  const presets = config ? Object.keys(config.presets) : ["perudo", "perudo_calza", "liars_dice", "bluff"];
  const submit = async (e) => {
    e.preventDefault();
    const fd = new FormData(e.currentTarget);
    const player = String(fd.get("player") || "").trim();
    if (!player) {
      // Only spaces: the browser's "required" let it through; say what is missing.
      toast(t("error.bad_name"));
      e.currentTarget.querySelector("[data-testid=player-name]").focus();
      return;
    }
    if (nameTooLong(player)) {
      toast(t("name.too_long", { n: NAME_MAX }));
      e.currentTarget.querySelector("[data-testid=player-name]").focus();
      return;
    }
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
      rated: fd.get("rated") === "on",
      show_hands: fd.get("show_hands") === "on",
    };
    if (fd.get("calza")) body.calza = fd.get("calza");
    if (fd.get("palifico")) body.palifico = fd.get("palifico");
    body.odds = fd.get("odds") || "auto";
    body.vacated = fd.get("vacated") || "bot";
    try {
      const out = await api("POST", "/api/tables", body);
      localStorage.setItem(tokenKey(out.table_id), out.token);
      navigate(out.invite);
    } catch (err) {
      toast(refusalText(err));
    }
  };
  return html`<form class="create" data-testid="create-form" onSubmit=${submit}>
    <${Field} label=${t("lobby.your_name")}><${NameInput} name="player" required value=${name} testid="player-name" autocomplete="nickname" /><//>
    <${Field} label=${t("lobby.table_name")}><input type="text" name="name" maxlength="60" placeholder=${t("lobby.default_table", { name: name || "…" })} data-testid="table-name" /><//>
    <${Field} label=${t("lobby.preset")}><${Select} name="preset" testid="preset" value="perudo" options=${presets.map((p) => [p, t(`preset.${p}`)])} /><//>
    <div class="grid2">
      <${Field} label=${t("lobby.calza")}><${Select} name="calza" testid="calza" value="" options=${[["", t("opt.default")], ["off", t("opt.off")], ["on", t("opt.on")], ["to_act", t("opt.to_act")]]} /><//>
      <${Field} label=${t("lobby.palifico")}><${Select} name="palifico" testid="palifico" value="" options=${[["", t("opt.default")], ["on", t("opt.on")], ["off", t("opt.off")], ["not_two_players", t("opt.not_two_players")]]} /><//>
    </div>
    <div class="grid2">
      <${Field} label=${t("lobby.dice")}><${Select} name="dice" testid="dice" value="5" options=${range(1, 10).map((n) => [n, String(n)])} /><//>
      <${Field} label=${t("lobby.seats")}><${Select} name="seats" testid="seats" value="4" options=${range(2, 10).map((n) => [n, String(n)])} /><//>
    </div>
    <${Field} label=${t("lobby.timer")}><${Select} name="turn_seconds" testid="timer" value=${config ? config.turn_seconds : 60}
      options=${timerChoices(config ? config.turn_seconds : 60)} /><//>
    <div class="grid2">
      <${Field} label=${t("lobby.odds")}><${Select} name="odds" testid="odds" value="auto"
        options=${oddsChoices()} /><//>
      <${Field} label=${t("lobby.vacated")}><${Select} name="vacated" testid="vacated" value="bot"
        options=${vacatedChoices()} /><//>
    </div>
    <label class="check"><input type="checkbox" name="memory" data-testid="memory" /> ${t("lobby.memory")}</label>
    <label class="check"><input type="checkbox" name="private" data-testid="private" /> ${t("lobby.private")}</label>
    <label class="check"><input type="checkbox" name="rated" data-testid="rated" /> ${t("lobby.rated")}</label>
    <label class="check"><input type="checkbox" name="show_hands" data-testid="show-hands" /> ${t("lobby.show_hands")}</label>
    <button class="btn primary big" type="submit" data-testid="create">${t("lobby.create_btn")}</button>
  </form>`;
}

export function LobbyPage({ navigate }) {
  const [config, setConfig] = useState(null);
  const [lists, setLists] = useState({ tables: [], games: [] });
  useEffect(() => {
    let live = true;
    api("GET", "/api/config").then((c) => live && setConfig(c), (e) => toast(refusalText(e)));
    const refresh = async () => {
      try {
        // ?player=<name>: the finished games that player sat in (docs/accounts.md).
        const player = new URLSearchParams(location.search).get("player");
        const gamesPath = player ? `/api/games?player=${encodeURIComponent(player)}` : "/api/games";
        const [tables, games] = await Promise.all([api("GET", "/api/tables"), api("GET", gamesPath)]);
        if (live) setLists({ tables: tables.tables, games: games.games });
      } catch (e) {
        /* the next refresh tries again */
      }
    };
    refresh();
    const timer = setInterval(refresh, 3000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);
  useEffect(() => {
    if (location.hash === "#games") document.getElementById("games")?.scrollIntoView();
  }, []);
  return html`<div class="lobbypage">
    <div class="hero">
      <div class="dice" aria-hidden="true"><${Die} face=${1} size="lg" /><${Die} face=${3} size="lg" /><${Die} face=${5} size="lg" /></div>
      <div><h1>${t("app.title")}</h1><p>${t("app.tagline")}</p></div>
    </div>
    <div class="lobby">
      <div class="col">
        <section class="card" aria-labelledby="playnow-title"><h2 id="playnow-title">${t("playnow.title")}</h2><p class="muted">${t("playnow.intro")}</p><${PlayNow} config=${config} navigate=${navigate} /></section>
        <section class="card" aria-labelledby="open-title"><h2 id="open-title">${t("lobby.open_tables")}</h2><${TableList} tables=${lists.tables} /></section>
        <${FriendsCard} />
        <section class="card" id="games" aria-labelledby="games-title"><h2 id="games-title">${t("lobby.recent")}</h2><${GameList} games=${lists.games} /></section>
      </div>
      <section class="card" aria-labelledby="create-title"><h2 id="create-title">${t("lobby.create")}</h2><${CreateForm} config=${config} navigate=${navigate} /></section>
    </div>
  </div>`;
}
