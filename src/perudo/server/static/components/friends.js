// Friends and notices on the page (docs/server.md#friends, #web-push), for a signed-in person:
// the invitations shown on every view (accept: seated at the table; decline: the inviter is
// told), the friends card of the lobby, the follow and block buttons of a profile, inviting by
// name at a table, and the per-device, per-kind Web Push choices. Their state and the notice
// socket are social.js's. Nothing here is shown to a guest.

import { html, useState, useEffect, api, tokenKey, useStore } from "../lib.js";
import { lang, t } from "../i18n.js";
import { refusalText } from "../refusals.js";
import { toast } from "./common.js";
import { deviceId, social } from "../social.js";

// -- invitations, on every view --------------------------------------------------------------

export function Invitations({ navigate }) {
  const { invitations } = useStore(social);
  if (!invitations.length) return null;
  const drop = (id) => social.set((s) => ({ invitations: s.invitations.filter((i) => i.id !== id) }));
  const accept = async (inv) => {
    try {
      const out = await api("POST", `/api/invitations/${encodeURIComponent(inv.id)}/accept`);
      localStorage.setItem(tokenKey(out.table), out.token);
      drop(inv.id);
      // Already on that table's page (watching): open it again, seated.
      if (location.pathname === `/t/${out.table}`) location.reload();
      else navigate(`/t/${out.table}`);
    } catch (err) {
      drop(inv.id);
      toast(refusalText(err));
    }
  };
  const decline = async (inv) => {
    drop(inv.id);
    try {
      await api("POST", `/api/invitations/${encodeURIComponent(inv.id)}/decline`);
    } catch (err) {
      toast(refusalText(err));
    }
  };
  return html`<div class="invitations" data-testid="invitations" role="region" aria-label=${t("friends.invitations")}>
    ${invitations.map((inv) => html`<div class="card invitation" key=${inv.id} data-testid="invitation">
      <p>${t("friends.invited", { name: inv.from, table: inv.table_name })}</p>
      <div class="row">
        <button class="btn primary small" data-testid="accept-invitation" onClick=${() => accept(inv)}>${t("friends.accept")}</button>
        <button class="btn small" data-testid="decline-invitation" onClick=${() => decline(inv)}>${t("friends.decline")}</button>
      </div>
    </div>`)}
  </div>`;
}

// -- the lobby's friends card ----------------------------------------------------------------

function useFriends(me) {
  const [data, setData] = useState(null);
  const reload = () => api("GET", "/api/friends").then(setData, () => setData(null));
  useEffect(() => {
    if (!me) return undefined;
    reload();
    const timer = setInterval(reload, 5000);
    return () => clearInterval(timer);
  }, [me]);
  return [data, reload];
}

export function FriendsCard() {
  const { me } = useStore(social);
  const [data, reload] = useFriends(me);
  if (!me || !data) return null;
  const unblock = (name) => api("DELETE", `/api/friends/${encodeURIComponent(name)}/block`).then(reload, (err) => toast(refusalText(err)));
  return html`<section class="card friends" data-testid="friends" aria-labelledby="friends-title">
    <h2 id="friends-title">${t("friends.title")}</h2>
    ${data.following.length ? html`<ul class="friendlist">${data.following.map((f) => html`<li data-testid="friend" data-name=${f.name}>
        <span class=${f.online ? "dot on" : "dot"} aria-hidden="true"></span>
        <a href=${`/@/${encodeURIComponent(f.name)}`} data-link>${f.name}</a>
        <span class="muted" data-testid="friend-online">${f.online ? t("friends.online") : t("friends.offline")}</span>
        ${f.tables.map((tb) => html` <a class="pill" href=${`/t/${tb.id}`} data-link data-testid="friend-table">${t("friends.at", { table: tb.name })}</a>`)}
      </li>`)}</ul>` : html`<p class="muted" data-testid="no-friends">${t("friends.none")}</p>`}
    ${data.blocked.length ? html`<h3>${t("friends.blocked")}</h3><ul>${data.blocked.map((name) => html`<li>${name}
        <button class="btn small" data-testid="unblock" onClick=${() => unblock(name)}>${t("friends.unblock")}</button></li>`)}</ul>` : null}
  </section>`;
}

// -- a profile's follow and block buttons ----------------------------------------------------

export function FollowButtons({ name }) {
  const { me } = useStore(social);
  const [data, reload] = useFriends(me);
  if (!me || !data || me.toLowerCase() === name.toLowerCase()) return null;
  const following = data.following.some((f) => f.name === name);
  const blocked = data.blocked.includes(name);
  const call = (method, what) => api(method, `/api/friends/${encodeURIComponent(name)}/${what}`).then(reload, (err) => toast(refusalText(err)));
  return html`<div class="row" data-testid="follow-buttons">
    ${blocked ? null : following
      ? html`<button class="btn" data-testid="unfollow" onClick=${() => call("DELETE", "follow")}>${t("friends.unfollow")}</button>`
      : html`<button class="btn primary" data-testid="follow" onClick=${() => call("POST", "follow")}>${t("friends.follow")}</button>`}
    ${blocked
      ? html`<button class="btn" data-testid="unblock" onClick=${() => call("DELETE", "block")}>${t("friends.unblock")}</button>`
      : html`<button class="btn" data-testid="block" onClick=${() => call("POST", "block")}>${t("friends.block")}</button>`}
  </div>`;
}

// -- inviting by name, at a table where you have a seat (the players you follow offered) ------

export function InviteByName({ tableId }) {
  const { me } = useStore(social);
  const [name, setName] = useState("");
  const [friends] = useFriends(me);
  if (!me) return null;
  const submit = async (e) => {
    e.preventDefault();
    const who = name.trim();
    if (!who) return;
    try {
      await api("POST", "/api/invitations", { name: who, table: tableId });
      setName("");
      toast(t("friends.sent", { name: who }), true);
    } catch (err) {
      toast(refusalText(err));
    }
  };
  return html`<form class="row" data-testid="invite-form" onSubmit=${submit}>
    <input value=${name} maxlength="40" list="invite-friends" data-testid="invite-name" aria-label=${t("friends.invite_name")} placeholder=${t("friends.invite_name")} onInput=${(e) => setName(e.currentTarget.value)} />
    <datalist id="invite-friends">${(friends ? friends.following : []).map((f) => html`<option value=${f.name}>${f.online ? t("friends.online") : t("friends.offline")}</option>`)}</datalist>
    <button class="btn small" type="submit" data-testid="invite-send">${t("friends.invite")}</button>
  </form>`;
}

// -- Web Push: per device and per kind -------------------------------------------------------

const KINDS = ["turn", "invite", "start"];

function keyBytes(b64) {
  const s = atob(b64.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((b64.length + 3) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

export function PushPrefs() {
  const { me } = useStore(social);
  const [state, setState] = useState(null);
  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  useEffect(() => {
    if (!me || !supported) return;
    api("GET", `/api/push?device=${encodeURIComponent(deviceId())}`).then(setState, () => setState(null));
  }, [me]);
  if (!me || !supported || !state) return null;
  const choose = async (kind, on) => {
    const kinds = KINDS.filter((k) => (k === kind ? on : state.subscribed.includes(k)));
    try {
      if (!kinds.length) {
        await api("DELETE", `/api/push/${encodeURIComponent(deviceId())}`);
      } else {
        if ((await Notification.requestPermission()) !== "granted") {
          toast(t("push.denied"));
          return;
        }
        const reg = await navigator.serviceWorker.ready;
        const sub = (await reg.pushManager.getSubscription()) || (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(state.key) }));
        await api("POST", "/api/push", { device: deviceId(), lang: lang(), kinds, subscription: sub.toJSON() });
      }
      setState({ ...state, subscribed: kinds });
    } catch (err) {
      toast(err.code ? refusalText(err) : t("push.failed"));
    }
  };
  return html`<fieldset class="pushprefs" data-testid="push-prefs">
    <legend>${t("push.title")}</legend>
    ${KINDS.map((k) => html`<label class="check"><input type="checkbox" data-testid=${`push-${k}`} checked=${state.subscribed.includes(k)} onChange=${(e) => choose(k, e.currentTarget.checked)} /> ${t(`push.${k}`)}</label>`)}
  </fieldset>`;
}
