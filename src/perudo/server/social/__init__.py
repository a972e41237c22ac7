"""Friends and notifications (docs/server.md#friends, docs/security.md): following a player,
blocking one, inviting one by name to your table, who of those you follow is online and at
which public table; and Web Push for "your turn", "you are invited" and "your table is
starting" (docs/server.md#web-push). Everything here needs an account.

* its rows (follows, blocks, invitations, push subscriptions, the server's VAPID key) are the
  store's: :mod:`perudo.server.store.social`;
* :mod:`.presence`: who is online in this process (their open pages), and the per-account
  channel that carries notices to them;
* :mod:`.blocks`: what a block hides and refuses at a table (chat and reactions, a seat);
* :mod:`.push`: the server's VAPID key and the Web Push sender;
* :mod:`.routes`: ``/api/friends…``, ``/api/invitations…``, ``/api/push…`` and the notice
  socket ``/ws/me``.
"""
