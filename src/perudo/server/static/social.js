// Friends and notices (docs/server.md#friends, #web-push), for a signed-in person: the
// friends' state (who is signed in, the open invitations) and the notice socket /ws/me (open on
// every view: invitations arrive live; it tells the server whether the page is in front, so
// that Web Push goes only to devices where it is not). What the page draws of it is in
// components/friends.js. Nothing here is shown to a guest.

import { createStore } from "./lib.js";
import { t } from "./i18n.js";
import { toast } from "./components/common.js";

export const social = createStore({ me: null, invitations: [] });

// This browser's id for its push subscription and its pages' visibility (kept here only).
export function deviceId() {
  let id = localStorage.getItem("perudo.device");
  if (!id) {
    const raw = crypto.getRandomValues(new Uint8Array(16));
    id = btoa(String.fromCharCode(...raw)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    localStorage.setItem("perudo.device", id);
  }
  return id;
}

let sock = null;
let retries = 0;

function sendVisible() {
  if (sock && sock.readyState === WebSocket.OPEN) {
    sock.send(JSON.stringify({ type: "visible", visible: document.visibilityState === "visible", device: deviceId() }));
  }
}

function openNotices() {
  if (sock || !social.get().me) return;
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/me`);
  sock = ws;
  ws.onopen = () => {
    retries = 0;
    sendVisible();
  };
  ws.onmessage = (e) => {
    let m;
    try {
      m = JSON.parse(e.data);
    } catch {
      return;
    }
    if (m.type === "hello") social.set({ invitations: m.invitations });
    else if (m.type === "invited") social.set((s) => ({ invitations: [m.invitation, ...s.invitations.filter((i) => i.id !== m.invitation.id)] }));
    else if (m.type === "declined") toast(t("friends.declined", { name: m.by, table: m.table_name }));
    else if (m.type === "accepted") toast(t("friends.accepted", { name: m.by, table: m.table_name }), true);
  };
  ws.onclose = () => {
    if (sock === ws) sock = null;
    if (social.get().me) setTimeout(openNotices, Math.min(30000, 1000 * 2 ** retries++));
  };
}

document.addEventListener("visibilitychange", sendVisible);
setInterval(() => sock && sock.readyState === WebSocket.OPEN && sock.send('{"type":"ping"}'), 30000);
window.addEventListener("perudo:account", (e) => {
  const me = e.detail;
  social.set({ me: me ? me.name : null });
  if (me) openNotices();
  else if (sock) {
    social.set({ invitations: [] });
    sock.close();
  }
});
