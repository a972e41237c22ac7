// The account page (/account, docs/accounts.md): sign up or sign in with a name and a
// password or a passkey; signed in, the sessions (each revocable), the passkeys (added and
// removed), signing out and deleting the account. Signing up or in sends the seat tokens this
// device keeps, so the games it played as a guest join the account's profile; and making the
// account a bot account (docs/bot-api.md).

import { html, useState, useEffect, api, setCsrf, tokenKey } from "../lib.js";
import { t } from "../i18n.js";
import { refusalText } from "../refusals.js";
import { toast } from "../components/common.js";

// The session as the page knows it: null (signed out) or GET /api/account's answer.
let account = null;

export async function loadAccount() {
  try {
    account = await api("GET", "/api/account");
  } catch {
    account = null;
  }
  setCsrf(account && account.csrf);
  return account;
}

// The seats this device took as a guest: each table's seat token (lib.js tokenKey).
function deviceSeats() {
  const prefix = tokenKey("");
  const seats = [];
  for (let i = 0; i < localStorage.length && seats.length < 200; i++) {
    const key = localStorage.key(i);
    const table = key && key.startsWith(prefix) ? key.slice(prefix.length) : "";
    const token = table ? localStorage.getItem(key) : "";
    // Only what could be a seat (the server refuses the whole request for a malformed one).
    if (table && table.length <= 32 && token && token.length <= 100) seats.push({ table, token });
  }
  return seats;
}

// A passkey ceremony in the browser: the server's options (JSON) in, the credential's JSON out.
class NoPasskey extends Error {}
async function passkey(kind, options) {
  if (!window.PublicKeyCredential || !PublicKeyCredential.parseCreationOptionsFromJSON) throw new NoPasskey(t("account.passkey_unsupported"));
  try {
    const cred =
      kind === "create"
        ? await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) })
        : await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
    return cred.toJSON();
  } catch (err) {
    throw new NoPasskey(t(err && err.name === "NotAllowedError" ? "account.passkey_cancelled" : "account.passkey_unsupported"));
  }
}

// Options from the server, the browser's ceremony, the answer back to `path`.
async function ceremony(kind, optionsPath, path, optionsBody, extra = {}) {
  const { ceremony: id, options } = await api("POST", optionsPath, optionsBody);
  const credential = await passkey(kind, options);
  return api("POST", path, { ceremony: id, credential, ...extra });
}

function say(err) {
  toast(err instanceof NoPasskey ? err.message : refusalText(err));
}

async function signedIn(out, onDone) {
  if (out && out.claimed) toast(t("account.claimed", { n: out.claimed }), true);
  onDone(await loadAccount());
}

function Credentials({ onDone }) {
  const submit = (path) => async (e) => {
    e.preventDefault();
    const form = e.currentTarget.form || e.currentTarget;
    const fd = new FormData(form);
    try {
      const out = await api("POST", path, { name: String(fd.get("name") || "").trim(), password: String(fd.get("password") || ""), seats: deviceSeats() });
      await signedIn(out, onDone);
    } catch (err) {
      say(err);
    }
  };
  const withPasskey = (up) => async (e) => {
    e.preventDefault();
    const name = String(new FormData(e.currentTarget.form).get("name") || "").trim();
    try {
      const out = up
        ? await ceremony("create", "/api/account/passkey/signup/options", "/api/account/passkey/signup", { name }, { seats: deviceSeats() })
        : await ceremony("get", "/api/account/passkey/signin/options", "/api/account/passkey/signin", undefined, { seats: deviceSeats() });
      await signedIn(out, onDone);
    } catch (err) {
      say(err);
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
      <p class="muted">${t("account.passkey_note")}</p>
      <div class="row">
        <button class="btn" type="button" data-testid="passkey-sign-in" onClick=${withPasskey(false)}>${t("account.passkey_sign_in")}</button>
        <button class="btn" type="button" data-testid="passkey-sign-up" onClick=${withPasskey(true)}>${t("account.passkey_sign_up")}</button>
      </div>
    </form>
  </section>`;
}

function BotUpgrade({ me, onToken }) {
  // An account that has played no game becomes a bot account, for good (docs/bot-api.md):
  // its first token is shown once, and the page is signed out.
  const upgrade = async (e) => {
    e.preventDefault();
    const password = String(new FormData(e.currentTarget).get("password") || "");
    try {
      const made = await api("POST", "/api/bot/account/upgrade", { name: me.name, password });
      onToken(made.token.token);
    } catch (err) {
      toast(refusalText(err));
    }
  };
  return html`<form onSubmit=${upgrade} data-testid="bot-form">
    <h3>${t("account.bot_title")}</h3>
    <p class="muted">${t("account.bot_text")}</p>
    <label>${t("account.bot_password")} <input name="password" type="password" autocomplete="current-password" data-testid="bot-password" required /></label>
    <label><input type="checkbox" required data-testid="bot-confirm" /> ${t("account.bot_confirm")}</label>
    <button class="btn" type="submit" data-testid="bot-upgrade">${t("account.bot_button")}</button>
  </form>`;
}

function BotToken({ token }) {
  return html`<section class="card" data-testid="bot-token-card">
    <h2>${t("account.bot_title")}</h2>
    <p>${t("account.bot_token")}</p>
    <p><code data-testid="bot-token">${token}</code></p>
    <p class="muted">${t("account.bot_done")}</p>
  </section>`;
}

function Signed({ me, onDone, onToken }) {
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
  const addPasskey = async () => {
    try {
      await ceremony("create", "/api/account/passkeys/options", "/api/account/passkeys");
      toast(t("account.passkey_added"), true);
      onDone(await loadAccount());
    } catch (err) {
      say(err);
    }
  };
  const removeWithPasskey = async () => {
    try {
      const { ceremony: id, options } = await api("POST", "/api/account/passkey/confirm/options");
      const credential = await passkey("get", options);
      await api("POST", "/api/account/delete", { passkey: { ceremony: id, credential } });
      onDone(await loadAccount());
    } catch (err) {
      say(err);
    }
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
    <h3>${t("account.passkeys")}</h3>
    <ul data-testid="passkeys">${me.passkeys.length === 0 ? html`<li class="muted">${t("account.no_passkeys")}</li>` : me.passkeys.map((k) => html`<li>
      <span>${t("account.passkey_added_at", { date: new Date(k.created_at * 1000).toLocaleString() })}</span>
      <button class="btn small" data-testid="remove-passkey" onClick=${act("DELETE", `/api/account/passkeys/${encodeURIComponent(k.id)}`)}>${t("account.remove_passkey")}</button>
    </li>`)}</ul>
    <button class="btn" data-testid="add-passkey" onClick=${addPasskey}>${t("account.add_passkey")}</button>
    ${me.password && html`<form onSubmit=${change} data-testid="password-form">
      <h3>${t("account.change_password")}</h3>
      <label>${t("account.old_password")} <input name="old" type="password" autocomplete="current-password" data-testid="old-password" required /></label>
      <label>${t("account.new_password")} <input name="new" type="password" autocomplete="new-password" data-testid="new-password" required /></label>
      <button class="btn" type="submit" data-testid="change-password">${t("account.change_password")}</button>
    </form>`}
    <form onSubmit=${remove} data-testid="delete-form">
      <h3>${t("account.delete")}</h3>
      <p class="muted">${t("account.delete_note")}</p>
      ${me.password
        ? html`<label>${t("account.password")} <input name="password" type="password" autocomplete="current-password" data-testid="delete-password" required /></label>
            <button class="btn danger" type="submit" data-testid="delete-account">${t("account.delete")}</button>`
        : html`<button class="btn danger" type="button" data-testid="delete-with-passkey" onClick=${removeWithPasskey}>${t("account.delete_with_passkey")}</button>`}
    </form>
    <${BotUpgrade} me=${me} onToken=${onToken} />
  </section>`;
}

export function AccountPage() {
  const [me, setMe] = useState(account);
  const [botToken, setBotToken] = useState(null);
  useEffect(() => {
    loadAccount().then(setMe);
  }, []);
  const madeBot = async (token) => {
    setBotToken(token);
    setMe(await loadAccount());
  };
  if (botToken) return html`<${BotToken} token=${botToken} />`;
  return me ? html`<${Signed} me=${me} onDone=${setMe} onToken=${madeBot} />` : html`<${Credentials} onDone=${setMe} />`;
}
