// The account page (/account, docs/accounts.md): sign up or sign in with a name and a
// password; signed in, the sessions (each revocable), signing out and deleting the account.
// Where the site sends mail (GET /api/account/mail): the e-mail address (added, confirmed by
// a mailed link, removed), "forgot password", and the mailed links' forms (#reset=<token>,
// #confirm=<token>: the token stays in the fragment, which no server sees).

import { html, useState, useEffect, api, setCsrf } from "../lib.js";
import { t, lang } from "../i18n.js";
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
    <${Forgot} mail=${mail} />
  </section>`;
}

function Signed({ me, mail, onDone, onMail }) {
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
    <${Email} mail=${mail} onDone=${onMail} />
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
  if (link && link[0] === "reset") {
    return html`<${ResetForm} token=${link[1]} onDone=${() => loadAccount().then((a) => { setMe(a); setLink(null); })} />`;
  }
  return me
    ? html`<${Signed} me=${me} mail=${mail} onDone=${setMe} onMail=${refreshMail} />`
    : html`<${Credentials} onDone=${(a) => { setMe(a); refreshMail(); }} mail=${mail} />`;
}
