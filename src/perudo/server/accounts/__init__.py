"""Accounts, optional (docs/accounts.md): a player signs up with a username and a password,
signs in and out, lists and revokes their sessions, changes the password, deletes the
account. Nothing here is asked of a person who just plays.

* :mod:`.names`: which usernames are accepted, and when two are the same;
* :mod:`.passwords`: argon2id, off the event loop;
* :mod:`.sessions`: the session cookie, its database row, the CSRF and ``Origin`` checks, the
  player a table seat is taken for;
* :mod:`.routes`: the ``/api/account`` routes;
* :mod:`.recovery` and :mod:`.mail`: e-mail addresses and password reset by mail, where the
  operator configures SMTP.

The store (:mod:`perudo.server.store`) keeps the rows; nothing here talks to the database.
"""
