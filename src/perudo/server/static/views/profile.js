// A player's profile (/@/<name>) and the leaderboard (/leaderboard), from the JSON API
// (docs/accounts.md#profiles-and-leaderboards): games played and won per variant, each
// pool's rating (provisional marked) with its history as a small inline SVG chart, the recent
// games linking to their replays; the established players, best first.

import { html, useState, useEffect, api } from "../lib.js";
import { t } from "../i18n.js";
import { refusalText } from "../refusals.js";
import { Missing } from "../components/common.js";
import { FollowButtons } from "../components/friends.js";

const variantName = (v) => t(`preset.${v}`);

// The rating after each rated game, as a line with a dot per game (no axes: the number is
// beside it).
export function RatingChart({ history }) {
  if (!history || !history.length) return null;
  const w = 160;
  const h = 40;
  const ys = history.map((p) => p.rating);
  const lo = Math.min(...ys);
  const span = Math.max(1, Math.max(...ys) - lo);
  const xy = ys.map((y, i) => [ys.length < 2 ? w / 2 : (i * (w - 4)) / (ys.length - 1) + 2, h - 2 - ((y - lo) * (h - 4)) / span]);
  const points = xy.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
  return html`<svg class="rating-chart" data-testid="rating-chart" width=${w} height=${h} viewBox=${`0 0 ${w} ${h}`} role="img" aria-label=${t("profile.chart", { from: ys[0], to: ys[ys.length - 1] })}>
    <polyline fill="none" stroke="currentColor" stroke-width="2" points=${points} />
    ${xy.map(([x, y]) => html`<circle cx=${x.toFixed(1)} cy=${y.toFixed(1)} r="2" fill="currentColor" />`)}</svg>`;
}

function useJson(path) {
  const [state, setState] = useState({ data: null, error: null });
  useEffect(() => {
    api("GET", path).then((data) => setState({ data, error: null }), (error) => setState({ data: null, error }));
  }, [path]);
  return state;
}

export function ProfilePage({ name }) {
  const { data, error } = useJson(`/api/players/${encodeURIComponent(name)}`);
  if (error) return html`<${Missing} text=${refusalText(error)} testid="no-player" />`;
  if (!data) return null;
  const variants = Object.entries(data.variants);
  return html`<section class="card" data-testid="profile">
    <h2 data-testid="profile-name">${data.name}${data.bot ? html` <span class="pill" data-testid="profile-bot" title=${t("seat.bot_account_long")}>${t("profile.bot")}</span>` : null}</h2>
    <${FollowButtons} name=${data.name} />
    ${variants.length ? null : html`<p class="muted">${t("profile.no_games")}</p>`}
    ${variants.map(([v, e]) => html`<div class="variant" data-testid=${`variant-${v}`}>
      <h3>${variantName(v)}</h3>
      <p data-testid=${`tally-${v}`}>${t("profile.tally", { played: e.played, won: e.won })}</p>
      ${Object.entries(e.ratings).map(([pool, r]) => html`<p data-testid=${`rating-${v}-${pool}`}>
        ${t(`profile.pool_${pool}`)}: <strong>${r.rating}</strong>${r.provisional ? html` <abbr title=${t("over.provisional_long")}>${t("over.provisional")}</abbr>` : null}
        <${RatingChart} history=${r.history} /></p>`)}
    </div>`)}
    ${data.recent.length ? html`<h3>${t("profile.recent")}</h3>
      <ul data-testid="recent">${data.recent.map((g) => html`<li>
        <a href=${g.replay} data-link>${g.names.join(", ")}</a> · ${variantName(g.variant || "perudo")}${g.rated ? ` · ${t("profile.rated")}` : ""} · ${g.won ? t("profile.won") : t("profile.lost")}
      </li>`)}</ul>` : null}
  </section>`;
}

export function LeaderboardPage() {
  const [variant, setVariant] = useState("perudo");
  const [pool, setPool] = useState("duel");
  // Bots are ranked apart from people (docs/bot-api.md): /leaderboard?bots=1.
  const [bots, setBots] = useState(new URLSearchParams(location.search).get("bots") === "1");
  const showBots = (on) => {
    setBots(on);
    history.replaceState(history.state, "", on ? "/leaderboard?bots=1" : "/leaderboard");
  };
  const { data, error } = useJson(`/api/leaderboard?variant=${variant}&pool=${pool}${bots ? "&bots=1" : ""}`);
  const config = useJson("/api/config").data;
  const presets = config ? Object.keys(config.presets) : [variant];
  return html`<section class="card" data-testid="leaderboard">
    <h2>${t("board.title")}</h2>
    <div class="row" role="group" aria-label=${t("board.title")}>
      <button class=${`btn small ${bots ? "" : "primary"}`} aria-pressed=${!bots} data-testid="board-people" onClick=${() => showBots(false)}>${t("board.people")}</button>
      <button class=${`btn small ${bots ? "primary" : ""}`} aria-pressed=${bots} data-testid="board-bots" onClick=${() => showBots(true)}>${t("board.bots")}</button>
    </div>
    <div class="row">
      <select data-testid="board-variant" aria-label=${t("lobby.preset")} onChange=${(e) => setVariant(e.currentTarget.value)}>
        ${presets.map((v) => html`<option value=${v} selected=${v === variant}>${variantName(v)}</option>`)}
      </select>
      <select data-testid="board-pool" aria-label=${t("board.pool")} onChange=${(e) => setPool(e.currentTarget.value)}>
        ${["duel", "table"].map((p) => html`<option value=${p} selected=${p === pool}>${t(`profile.pool_${p}`)}</option>`)}
      </select>
    </div>
    ${error ? html`<p>${refusalText(error)}</p>` : null}
    ${data && !data.players.length ? html`<p class="muted" data-testid="board-empty">${t("board.empty", { days: data.days })}</p>` : null}
    ${data && data.players.length ? html`<ol data-testid="board">${data.players.map((p) => html`<li>
      <a href=${`/@/${encodeURIComponent(p.name)}`} data-link>${p.name}</a> <strong>${p.rating}</strong> <span class="muted">${t("board.games", { n: p.games })}</span></li>`)}</ol>` : null}
  </section>`;
}
