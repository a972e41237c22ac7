// The page's one component library: Preact with htm (tagged templates instead of JSX, so no
// build step), vendored under static/vendor/ (see the import map in index.html).

import { h, render, Fragment, createContext } from "preact";
import { useState, useEffect, useRef, useMemo, useCallback, useContext, useLayoutEffect } from "preact/hooks";
import htm from "htm";

export const html = htm.bind(h);
export { h, render, Fragment, createContext, useState, useEffect, useRef, useMemo, useCallback, useContext, useLayoutEffect };

// The signed-in session's CSRF token (docs/accounts.md), sent with every request once known:
// the account routes need it, and creating or joining a table seats the person under their
// account only with it.
let csrf = null;
export function setCsrf(value) {
  csrf = value || null;
}

export async function api(method, path, body) {
  const headers = { "content-type": "application/json" };
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(data.message || res.statusText);
    // The server's refusal: {error: code, message, texts?} (routes/common.py error_response).
    err.code = data.error;
    err.params = data.params;
    err.texts = data.texts;
    throw err;
  }
  return data;
}

export const tokenKey = (id) => `perudo.token.${id}`;
// The bot levels a host may seat, easiest first: perudo.registry.LEVELS (the wire's BotLevel),
// which tests/server/test_error_words.py checks this list against.
export const BOT_LEVELS = ["easy", "medium", "hard", "expert"];
export const pct = (x) => `${Math.round(x * 100)}%`;

// A tiny store shared by the components: subscribe with useStore(store).
export function createStore(initial) {
  let state = initial;
  const subs = new Set();
  return {
    get: () => state,
    set(patch) {
      state = { ...state, ...(typeof patch === "function" ? patch(state) : patch) };
      subs.forEach((f) => f(state));
    },
    subscribe(f) {
      subs.add(f);
      return () => subs.delete(f);
    },
  };
}

export function useStore(store) {
  const [s, set] = useState(store.get());
  useEffect(() => store.subscribe(set), [store]);
  return s;
}
