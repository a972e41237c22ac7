// The table's chat. The input keeps what is being typed while the table changes around it
// (its value lives in this component, not in the table's state), and the lines stay scrolled
// where the reader left them unless they were at the bottom.

import { html, useState, useRef, useLayoutEffect } from "../lib.js";
import { t } from "../i18n.js";
import { displayName } from "./common.js";

export function Chat({ lines, onSend }) {
  const [text, setText] = useState("");
  const box = useRef(null);
  const atBottom = useRef(true);
  useLayoutEffect(() => {
    if (box.current && atBottom.current) box.current.scrollTop = box.current.scrollHeight;
  }, [lines.length]);
  const onScroll = () => {
    const el = box.current;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 8;
  };
  const submit = (e) => {
    e.preventDefault();
    const msg = text.trim();
    if (msg && onSend(msg)) setText("");
  };
  return html`<section class="card chatbox" data-box="chat" aria-labelledby="chat-title">
    <h2 id="chat-title">${t("chat.title")}</h2>
    <div class="chatlines" data-testid="chat-lines" ref=${box} onScroll=${onScroll} tabindex="0" role="log" aria-label=${t("chat.title")}>
      ${lines.map((c) => html`<div key=${c.version} class="ln ${c.seat === null ? "spect" : ""}"><b>${c.seat === null ? t("chat.spectator") : displayName(c.name)}</b> ${c.text}</div>`)}
    </div>
    <form class="chatform" onSubmit=${submit}>
      <input type="text" maxlength="300" value=${text} onInput=${(e) => setText(e.currentTarget.value)}
        placeholder=${t("chat.placeholder")} aria-label=${t("chat.placeholder")} data-testid="chat-input" />
      <button class="btn" type="submit" data-testid="chat-send">${t("chat.send")}</button>
    </form>
  </section>`;
}
