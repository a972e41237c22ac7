// The table page's state, and how each server message changes it. Pure: `receive(state, m)`
// returns the new state and the fresh events (those not seen before, for the announcements);
// the page draws whatever the state holds and decides no rule.

export const initialState = {
  version: null, // the last table version seen (not moved by a pong)
  table: null, // the table's information (seats, status, settings)
  seat: null, // this page's seat (null: watching)
  view: null, // the seat's view of the current game (perudo.core's PlayerView as JSON)
  past: [], // finished rounds, oldest first
  hint: null, // the odds of the standing bid, when the table shows them
  timerEnd: null, // Date.now() value when the turn timer of the seat to act runs out
  chat: [],
  reveal: null, // the latest round's result, shown inline until the next round's first move
  missing: false, // the table does not exist
  error: null, // the latest refusal {code, params, message, at}
  transfer: null, // this seat's private link to move it to another device {url, qr, until}
};

const timerEnd = (seconds) => (seconds === null || seconds === undefined ? null : Date.now() + seconds * 1000);

// What an update leaves out because its receiver holds it already, put back (each travels
// once): the round's actions, those of the view before and then the update's action events
// after its last round_resolved or round_started (which begin a round anew), and the rounds it
// finished, each its past_tail entry with those actions and its round_resolved as its result.
function merged(before, m, events) {
  let actions = before && before.actions ? before.actions.slice() : [];
  let actionsInfo = before && before.actions_info ? before.actions_info.slice() : [];
  const rounds = [];
  for (const e of events) {
    if (e.type === "action") {
      actions.push([e.seat, e.action]);
      actionsInfo.push(e.action_info);
    } else if (e.type === "round_resolved" || e.type === "round_started") {
      const tail = e.type === "round_resolved" && m.past_tail ? m.past_tail[rounds.length] : null;
      if (tail) {
        const { version, ...result } = e;
        rounds.push({ ...tail, actions, actions_info: actionsInfo, result });
      }
      actions = [];
      actionsInfo = [];
    }
  }
  const view = m.view.actions ? m.view : { ...m.view, actions, actions_info: actionsInfo };
  return { view, rounds };
}

export function receive(state, m) {
  const s = { ...state };
  const fresh = [];
  const seen = state.version;
  if (m.version !== undefined && m.version !== null && m.type !== "error" && m.type !== "pong") {
    s.version = Math.max(state.version || 0, m.version);
  }
  switch (m.type) {
    case "snapshot":
      s.table = m.table;
      s.seat = m.seat;
      s.view = m.view;
      s.past = m.view && m.view.past ? m.view.past : [];
      s.hint = m.hint;
      s.chat = m.chat;
      s.timerEnd = timerEnd(m.timer);
      // Joined (or back) between a round's end and the next round's first move: the result
      // is still on the table.
      s.reveal = m.view && !m.view.actions.length && s.past.length ? { ...s.past[s.past.length - 1].result, round: s.past[s.past.length - 1].round, wild: null } : null;
      break;
    case "update":
      for (const e of m.events) {
        if (seen !== null && e.version !== undefined && e.version <= seen) continue;
        fresh.push(e);
        // The reveal keeps its own round's number and wild face (the view then is that round's):
        // the next round (a palifico one, say) has other rules.
        if (e.type === "round_resolved") s.reveal = { ...e, at: Date.now(), round: state.view ? state.view.round : null, wild: state.view ? state.view.wild : null };
      }
      if (m.view) {
        const { view, rounds } = merged(state.view, m, fresh);
        if (m.view.past) s.past = m.view.past;
        else if (rounds.length) s.past = state.past.concat(rounds);
        s.view = view;
        s.seat = view.seat;
        // The reveal stays on the table until the next round's first move.
        if (s.reveal && !fresh.some((e) => e.type === "round_resolved") && view.actions_info.length) s.reveal = null;
      }
      s.hint = m.hint;
      s.timerEnd = timerEnd(m.timer);
      break;
    case "table":
      s.table = m.table;
      s.timerEnd = timerEnd(m.table.turn_remaining);
      if (m.table.status === "open" && state.view && state.view.phase === "game_over") {
        s.view = null;
        s.past = [];
        s.reveal = null;
      }
      break;
    case "chat":
      if (state.chat.some((c) => c.version === m.entry.version)) return { state, fresh };
      s.chat = state.chat.concat([m.entry]);
      break;
    case "seat_transfer":
      s.transfer = { url: m.url, qr: m.qr, until: Date.now() + m.expires_in * 1000 };
      break;
    case "seat":
      s.seat = m.seat;
      s.transfer = null;
      break;
    case "error":
      if (m.code === "no_table") s.missing = true;
      s.error = { code: m.code, refusal: m.refusal, params: m.params || {}, texts: m.texts || {}, message: m.message, at: Date.now() };
      break;
    default:
      return { state, fresh };
  }
  return { state: s, fresh };
}
