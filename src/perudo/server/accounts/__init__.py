"""Accounts, optional (docs/accounts.md): a player signs up with a username and a password or
a passkey, signs in and out, lists and revokes their sessions, changes the password, adds and
removes passkeys, deletes the account; signing up or in claims the games this device played
as a guest. Nothing here is asked of a person who just plays.

* :mod:`.names`: which usernames are accepted, and when two are the same;
* :mod:`.passwords`: argon2id, off the event loop;
* :mod:`.sessions`: the session cookie, its database row, the CSRF and ``Origin`` checks, the
  player a table seat is taken for;
* :mod:`.access`: who may act on an account: the sign-in limits, a password checked under
  them, the session a change is made under (every account route's checks);
* :mod:`.routes`: the ``/api/account`` routes (passwords, sessions, deletion);
* :mod:`.ceremony` and :mod:`.passkeys`: WebAuthn's checks and the passkey routes;
* :mod:`.claims`: a device's anonymous games claimed by its seat tokens;
* :mod:`.refusals`: the accounts' refusals in every language.
* :mod:`.recovery` and :mod:`.mail`: e-mail addresses and password reset by mail, where the
  operator configures SMTP.

The store (:mod:`perudo.server.store`) keeps the rows; nothing here talks to the database.
"""
