// The account page (/account, docs/accounts.md): sign up or sign in with a name and a
// password or a passkey; signed in, the sessions (each revocable), the passkeys (added and
// removed), signing out and deleting the account. Signing up or in sends the seat tokens this
// device keeps, so the games it played as a guest join the account's profile; making the
// account a bot account (docs/bot-api.md). Where the site sends mail (GET /api/account/mail):
// the e-mail address (added, confirmed by a mailed link, removed), "forgot password", and the
// mailed links' forms (#reset=<token>, #confirm=<token>: the token stays in the fragment,
// which no server sees).

import { html, useState, useEffect, api, setCsrf, tokenKey } from "../lib.js";
import { t, lang } from "../i18n.js";
import { refusalText } from "../refusals.js";
import { toast } from "../components/common.js";
import { PushPrefs } from "../components/friends.js";

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

// What the site's mail allows: {enabled, address} (GET /api/account/mail).
async function loadMail() {
  try {
    return await api("GET", "/api/account/mail");
  } catch {
    return { enabled: false, address: null };
  }
}

// The mailed link this page was opened with: ["reset" | "confirm", token] or null.
function mailedLink() {
  const found = /^#(reset|confirm)=([A-Za-z0-9_-]+)$/.exec(location.hash);
  return found ? [found[1], found[2]] : null;
}

function forgetLink() {
  history.replaceState(null, "", location.pathname + location.search);
}

function Forgot({ mail }) {
  if (!mail.enabled) {
    return html`<p class="muted" data-testid="no-reset">${t("account.no_reset")}</p>`;
  }
  const submit = async (e) => {
    e.preventDefault();
    const who = String(new FormData(e.currentTarget).get("who") || "").trim();
    try {
      await api("POST", "/api/account/forgot", { who, lang: lang() });
      toast(t("account.forgot_sent"), true);
    } catch (err) {
      toast(refusalText(err));
    }
  };
  return html`<form onSubmit=${submit} data-testid="forgot-form">
    <h3>${t("account.forgot")}</h3>
    <label>${t("account.name_or_email")} <input name="who" autocomplete="username" data-testid="forgot-who" required /></label>
    <button class="btn" type="submit" data-testid="forgot-button">${t("account.send_link")}</button>
  </form>`;
}

function ResetForm({ token, onDone }) {
  const submit = async (e) => {
    e.preventDefault();
    const password = String(new FormData(e.currentTarget).get("password") || "");
    try {
      await api("POST", "/api/account/reset", { token, password });
      forgetLink();
      toast(t("account.reset_done"), true);
      onDone();
    } catch (err) {
      toast(refusalText(err));
    }
  };
  return html`<section class="card" data-testid="reset">
    <h2>${t("account.reset_title")}</h2>
    <form onSubmit=${submit}>
      <label>${t("account.new_password")} <input name="password" type="password" autocomplete="new-password" data-testid="reset-password" required /></label>
      <button class="btn primary" type="submit" data-testid="reset-button">${t("account.reset_button")}</button>
    </form>
  </section>`;
}

function Email({ mail, onDone }) {
  if (!mail.enabled) return null;
  const add = async (e) => {
    e.preventDefault();
    const address = String(new FormData(e.currentTarget).get("address") || "").trim();
    try {
      await api("POST", "/api/account/email", { address, lang: lang() });
      toast(t("account.email_sent", { address }), true);
    } catch (err) {
      toast(refusalText(err));
    }
  };
  const remove = async () => {
    try {
      await api("DELETE", "/api/account/email");
      onDone();
    } catch (err) {
      toast(refusalText(err));
    }
  };
  return html`<form onSubmit=${add} data-testid="email-form">
    <h3>${t("account.email")}</h3>
    <p data-testid="email-address">${mail.address || t("account.no_email")}</p>
    <label>${t("account.new_email")} <input name="address" type="email" autocomplete="email" data-testid="email-input" required /></label>
    <div class="row">
      <button class="btn" type="submit" data-testid="email-add">${t("account.email_add")}</button>
      ${mail.address ? html`<button class="btn" type="button" data-testid="email-remove" onClick=${remove}>${t("account.email_remove")}</button>` : null}
    </div>
  </form>`;
}

function Credentials({ onDone, mail }) {
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
    <${Forgot} mail=${mail} />
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

function Signed({ me, mail, onDone, onMail, onToken }) {
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
  // A passkey-only account's first password, confirmed by one of its passkeys.
  const setFirst = async (e) => {
    e.preventDefault();
    const form = e.currentTarget;
    const fresh = String(new FormData(form).get("new") || "");
    try {
      const { ceremony: id, options } = await api("POST", "/api/account/passkey/confirm/options", { action: "password" });
      const credential = await passkey("get", options);
      await api("POST", "/api/account/password/set", { new: fresh, passkey: { ceremony: id, credential } });
      form.reset();
      toast(t("account.password_set"), true);
      onDone(await loadAccount());
    } catch (err) {
      say(err);
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
    <${Email} mail=${mail} onDone=${onMail} />
    <${PushPrefs} />
    ${me.password && html`<form onSubmit=${change} data-testid="password-form">
      <h3>${t("account.change_password")}</h3>
      <label>${t("account.old_password")} <input name="old" type="password" autocomplete="current-password" data-testid="old-password" required /></label>
      <label>${t("account.new_password")} <input name="new" type="password" autocomplete="new-password" data-testid="new-password" required /></label>
      <button class="btn" type="submit" data-testid="change-password">${t("account.change_password")}</button>
    </form>`}
    ${!me.password && me.passkeys.length > 0 && html`<form onSubmit=${setFirst} data-testid="set-password-form">
      <h3>${t("account.set_password")}</h3>
      <p class="muted">${t("account.set_password_note")}</p>
      <label>${t("account.new_password")} <input name="new" type="password" autocomplete="new-password" data-testid="first-password" required /></label>
      <button class="btn" type="submit" data-testid="set-password">${t("account.set_password")}</button>
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
  const [mail, setMail] = useState({ enabled: false, address: null });
  const [link, setLink] = useState(mailedLink);
  const refreshMail = () => loadMail().then(setMail);
  useEffect(() => {
    loadAccount().then(setMe);
    refreshMail();
    // A mailed link opened in a tab already on this page changes only the fragment.
    const follow = () => setLink(mailedLink());
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, []);
  const madeBot = async (token) => {
    setBotToken(token);
    setMe(await loadAccount());
  };
  useEffect(() => {
    if (link && link[0] === "confirm") {
      api("POST", "/api/account/email/confirm", { token: link[1] })
        .then((done) => toast(t("account.email_confirmed", { address: done.address }), true))
        .catch((err) => toast(refusalText(err)))
        .finally(() => {
          forgetLink();
          setLink(null);
          refreshMail();
        });
    }
  }, [link]);
  if (botToken) return html`<${BotToken} token=${botToken} />`;
  if (link && link[0] === "reset") {
    return html`<${ResetForm} token=${link[1]} onDone=${() => loadAccount().then((a) => { setMe(a); setLink(null); })} />`;
  }
  return me
    ? html`<${Signed} me=${me} mail=${mail} onDone=${setMe} onMail=${refreshMail} onToken=${madeBot} />`
    : html`<${Credentials} onDone=${(a) => { setMe(a); refreshMail(); }} mail=${mail} />`;
}
