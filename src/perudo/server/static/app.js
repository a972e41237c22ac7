// The Perudo page: routes between the lobby, a table and a replay, and draws the header.
// Components (Preact + htm, vendored) keep their own state, so what is typed, scrolled or
// focused survives the server's updates. The page renders what the server sends and sends
// actions back; it decides no rule and parses no notation.

import { html, render, useState, useEffect } from "./lib.js";
import { LANGS, MESSAGES, detectLang, lang, particle, setLang, t } from "./i18n.js";
import { Die } from "./components/dice.js";
import { LiveRegion, Missing, Toasts } from "./components/common.js";
import { LobbyPage } from "./views/lobby.js";
import { TablePage } from "./views/table.js";
import { ReplayPage } from "./views/replay.js";
import { AnalysisPage } from "./views/analysis.js";
import "./install.js";
import { AccountPage, loadAccount } from "./views/account.js";
import { LeaderboardPage, ProfilePage } from "./views/profile.js";
import "./social.js";
import { Invitations } from "./components/friends.js";

function navigate(path) {
  history.pushState({}, "", path);
  window.dispatchEvent(new Event("perudo:navigate"));
}

function usePath() {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const on = () => setPath(location.pathname);
    window.addEventListener("popstate", on);
    window.addEventListener("perudo:navigate", on);
    return () => {
      window.removeEventListener("popstate", on);
      window.removeEventListener("perudo:navigate", on);
    };
  }, []);
  return path;
}

// Links inside the page (data-link) change the route without reloading.
document.addEventListener("click", (e) => {
  const a = e.target.closest("a[data-link]");
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  const url = new URL(a.href);
  if (url.origin !== location.origin) return;
  e.preventDefault();
  if (url.pathname === location.pathname && url.hash) {
    document.getElementById(url.hash.slice(1))?.scrollIntoView({ behavior: "smooth" });
    return;
  }
  navigate(url.pathname + url.search + url.hash);
});

// The first stop of the Tab key: past the header, to your move when you have one (the raise
// buttons), else to the page's content.
function SkipLink() {
  const skip = (e) => {
    e.preventDefault();
    const move = document.querySelector("[data-testid=actions] [data-action]");
    (move || document.getElementById("app")).focus();
  };
  return html`<a class="skiplink" href="#app" data-testid="skip" onClick=${skip}>${t("nav.skip")}</a>`;
}

function Header({ path, onLang }) {
  return html`<header class="top">
    <a class="brand" href="/" data-link aria-label=${t("app.title")}>
      <span class="logo" aria-hidden="true"><${Die} face=${1} size="xs" label=${false} /><${Die} face=${5} size="xs" label=${false} /></span>
      <span>${t("app.title")}</span>
    </a>
    <nav aria-label=${t("nav.label")}>
      <a href="/" data-link class=${path === "/" ? "active" : ""} id="nav-lobby">${t("nav.lobby")}</a>
      <a href="/#games" data-link id="nav-replays">${t("nav.replays")}</a>
      <a href=${`/rules/${lang()}`} id="nav-rules" data-testid="nav-rules">${t("nav.rules")}</a>
      <a href="/leaderboard" data-link class=${path === "/leaderboard" ? "active" : ""} data-testid="nav-leaderboard">${t("nav.leaderboard")}</a>
      <a href="/account" data-link class=${path === "/account" ? "active" : ""} data-testid="nav-account">${t("nav.account")}</a>
    </nav>
    <span class="spacer"></span>
    <select class="lang" data-testid="lang" aria-label=${t("nav.language")} onChange=${(e) => onLang(e.currentTarget.value)}>
      ${Object.entries(LANGS).map(([k, v]) => html`<option value=${k} selected=${k === lang()}>${v}</option>`)}
    </select>
  </header>`;
}

function App() {
  const path = usePath();
  const [, setLangState] = useState(lang());
  const onLang = (l) => {
    setLang(l);
    setLangState(l);
  };
  let m;
  let page;
  if ((m = /^\/t\/([\w-]+)$/.exec(path))) page = html`<${TablePage} key=${m[1]} id=${m[1]} navigate=${navigate} />`;
  else if ((m = /^\/replay\/([A-Za-z0-9_-]{1,64})$/.exec(path))) page = html`<${ReplayPage} key=${m[1]} gameId=${m[1]} />`;
  else if ((m = /^\/analysis\/([A-Za-z0-9_-]{1,64})$/.exec(path))) page = html`<${AnalysisPage} key=${m[1]} gameId=${m[1]} />`;
  else if ((m = /^\/@\/([^/]{1,80})$/.exec(path))) page = html`<${ProfilePage} key=${m[1]} name=${decodeURIComponent(m[1])} />`;
  else if (path === "/leaderboard") page = html`<${LeaderboardPage} />`;
  else if (path === "/account") page = html`<${AccountPage} navigate=${navigate} />`;
  else if (path === "/") page = html`<${LobbyPage} navigate=${navigate} />`;
  else page = html`<${Missing} text=${t("page.missing")} testid="no-page" />`;
  useEffect(() => {
    if (!/^\/t\//.test(path)) document.title = t("app.title");
  }, [path, lang()]);
  return html`<${SkipLink} /><${Header} path=${path} onLang=${onLang} />
    <${Invitations} navigate=${navigate} />
    <main id="app" tabindex="-1">${page}</main>
    <${Toasts} />
    <${LiveRegion} />`;
}

setLang(detectLang());
loadAccount();
render(html`<${App} />`, document.getElementById("root"));
window.__perudo = { t, MESSAGES, LANGS, particle };
