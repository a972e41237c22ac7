// The account page (/account, docs/accounts.md): sign up or sign in with a name and a
// password; signed in, the sessions (each revocable), signing out and deleting the account.

import { html, useState, useEffect, api, setCsrf } from "../lib.js";
import { t } from "../i18n.js";
import { refusalText } from "../refusals.js";
import { toast } from "../components/common.js";
import { PushPrefs } from "../social.js";

// The session as the page knows it: null (signed out) or GET /api/account's answer.
let account = null;

export async function loadAccount() {
  try {
    account = await api("GET", "/api/account");
  } catch {
    account = null;
  }
  setCsrf(account && account.csrf);
  // Whoever keeps something of the signed-in person (social.js: the notice socket) follows.
  window.dispatchEvent(new CustomEvent("perudo:account", { detail: account }));
  return account;
}

function Credentials({ onDone }) {
  const submit = (path) => async (e) => {
    e.preventDefault();
    const form = e.currentTarget.form || e.currentTarget;
    const fd = new FormData(form);
    try {
      await api("POST", path, { name: String(fd.get("name") || "").trim(), password: String(fd.get("password") || "") });
      onDone(await loadAccount());
    } catch (err) {
      toast(refusalText(err));
    }
  };
  return html`<section class="card" data-testid="sign-in">
    <h2>${t("account.title_out")}</h2>
    <form onSubmit=${submit("/api/account/signin")}>
      <label>${t("account.name")} <input name="name" autocomplete="username" data-testid="account-name" required /></label>
      <label>${t("account.password")} <input name="password" type="password" autocomplete="current-password" data-testid="account-password" required /></label>
      <div class="row">
        <button class="btn primary" type="submit" data-testid="sign-in-button">${t("account.sign_in")}</button>
        <button class="btn" type="button" data-testid="sign-up-button" onClick=${submit("/api/account/signup")}>${t("account.sign_up")}</button>
      </div>
    </form>
  </section>`;
}

function Signed({ me, onDone }) {
  const act = (method, path, body) => async () => {
    try {
      await api(method, path, body);
      onDone(await loadAccount());
      return true;
    } catch (err) {
      toast(refusalText(err));
      return false;
    }
  };
  const change = async (e) => {
    e.preventDefault();
    const fd = new FormData(e.currentTarget);
    if (await act("POST", "/api/account/password", { old: String(fd.get("old") || ""), new: String(fd.get("new") || "") })()) {
      toast(t("account.password_changed"), true);
    }
  };
  const remove = async (e) => {
    e.preventDefault();
    const password = String(new FormData(e.currentTarget).get("password") || "");
    await act("POST", "/api/account/delete", { password })();
  };
  return html`<section class="card" data-testid="account">
    <h2 data-testid="account-title">${t("account.title_in", { name: me.name })}</h2>
    <h3>${t("account.sessions")}</h3>
    <ul data-testid="sessions">${me.sessions.map((s) => html`<li>
      <span>${s.agent || "—"} · ${new Date(s.seen_at * 1000).toLocaleString()}</span>
      ${s.current ? html` <strong>${t("account.this_session")}</strong>` : html` <button class="btn small" data-testid="revoke" onClick=${act("DELETE", `/api/account/sessions/${s.id}`)}>${t("account.revoke")}</button>`}
    </li>`)}</ul>
    <div class="row">
      <button class="btn" data-testid="sign-out" onClick=${act("POST", "/api/account/signout")}>${t("account.sign_out")}</button>
      <a class="btn" href="/api/account/export" download="perudo-account.json" data-testid="export">${t("account.export")}</a>
    </div>
    <${PushPrefs} />
    <form onSubmit=${change} data-testid="password-form">
      <h3>${t("account.change_password")}</h3>
      <label>${t("account.old_password")} <input name="old" type="password" autocomplete="current-password" data-testid="old-password" required /></label>
      <label>${t("account.new_password")} <input name="new" type="password" autocomplete="new-password" data-testid="new-password" required /></label>
      <button class="btn" type="submit" data-testid="change-password">${t("account.change_password")}</button>
    </form>
    <form onSubmit=${remove} data-testid="delete-form">
      <h3>${t("account.delete")}</h3>
      <p class="muted">${t("account.delete_note")}</p>
      <label>${t("account.password")} <input name="password" type="password" autocomplete="current-password" data-testid="delete-password" required /></label>
      <button class="btn danger" type="submit" data-testid="delete-account">${t("account.delete")}</button>
    </form>
  </section>`;
}

export function AccountPage() {
  const [me, setMe] = useState(account);
  useEffect(() => {
    loadAccount().then(setMe);
  }, []);
  return me ? html`<${Signed} me=${me} onDone=${setMe} />` : html`<${Credentials} onDone=${setMe} />`;
}
