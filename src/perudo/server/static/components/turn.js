// Your turn, in view wherever the page is scrolled: while it is this seat's turn and the
// panel's "your turn" line is out of view (scrolled away to the chat, the log, the rules), a
// bar stays fixed under the header; a tap on it brings the move back into view and focuses it.
// While the panel's line is in view the bar is not drawn, so it never covers the move.

import { html, useState, useEffect } from "../lib.js";
import { t } from "../i18n.js";

// The header's height: the bar sits under it, and a line hidden under it is out of view.
const headerHeight = () => {
  const h = document.querySelector("header.top");
  return h ? Math.round(h.getBoundingClientRect().height) : 0;
};

export function TurnBanner({ myTurn, onGo }) {
  const [away, setAway] = useState(false);
  const [top, setTop] = useState(0);
  useEffect(() => {
    if (!myTurn) return undefined;
    const line = document.querySelector("[data-testid=your-turn]");
    if (!line || !("IntersectionObserver" in window)) return undefined;
    const head = headerHeight();
    setTop(head);
    const io = new IntersectionObserver(([e]) => setAway(!e.isIntersecting), { rootMargin: `-${head}px 0px 0px 0px` });
    io.observe(line);
    return () => {
      io.disconnect();
      setAway(false);
    };
  }, [myTurn]);
  if (!myTurn || !away) return null;
  return html`<button type="button" class="turnbanner" data-testid="turn-banner" style=${{ top: `${top}px` }} onClick=${onGo}>
    <span class="yourturn">${t("game.your_turn")}</span>
    <span class="go">${t("game.to_move")}</span>
  </button>`;
}
