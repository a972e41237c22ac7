"""A bot of perudo.bots, or any function from a view to an action, at a table of a server.

    .venv/bin/python examples/botclient.py http://127.0.0.1:8000 TOKEN medium --table=ID
    .venv/bin/python examples/botclient.py http://127.0.0.1:8000 TOKEN medium --play-now perudo

The bot account's token (docs/bot-api.md) sits it at the table (again, if it sits there
already: its seat comes back), or waits in a Play-now pool for people who accept bots; a
level, a bot name or ``module:Class`` (looked up from the current folder too) plays it, seeing
the very view it sees in the arena (``view_from_json``). At a table it hosts, it starts the
game once every seat is taken.
"""

import argparse
import asyncio
import json
import os
import sys
import urllib.error
import urllib.request

import websockets

from perudo.core import Calza
from perudo.core.views import view_from_json
from perudo.registry import make_bot


async def ping(ws):
    while True:
        await asyncio.sleep(30)
        await ws.send('{"type": "ping"}')


def merged(before, update):
    """The whole view after ``update``, from the view ``before`` it (docs/bot-api.md): an
    update's view leaves out what never changes (rules, roll-off) and what you hold already,
    each sent once: the round's actions (the view's before, then the update's ``action``
    events after its last ``round_resolved`` or ``round_started``) and the rounds it finished
    (its ``past_tail``, each with those actions and its ``round_resolved`` as its result)."""
    view, past = update["view"], list(before["past"])
    acts, infos = list(before["actions"]), list(before["actions_info"])
    for e in update["events"]:
        if e["type"] == "action":
            acts, infos = [*acts, [e["seat"], e["action"]]], [*infos, e["action_info"]]
        elif e["type"] in ("round_resolved", "round_started"):
            if e["type"] == "round_resolved" and view["past"] is None:
                result = {k: v for k, v in e.items() if k != "version"}
                tail = update["past_tail"][len(past) - len(before["past"])]
                past.append({**tail, "actions": acts, "actions_info": infos, "result": result})
            acts, infos = [], []
    if view["past"] is not None:  # memory mode (P-40): the latest round only, whole
        past = view["past"]
    return {**view, "rules": before["rules"], "rolloff": before["rolloff"], "past": past,
            "actions": acts, "actions_info": infos}  # fmt: skip


async def play(url, token, table, decide, calza=lambda view: False, seat=None):
    """Play ``table`` with ``decide(view) -> action`` until its game ends; its last view."""
    auth = {"Authorization": f"Bearer {token}"}
    if seat is None:  # take a seat (the bot's own again, where it sits already)
        info = json.loads(urllib.request.urlopen(f"{url.rstrip('/')}/api/tables/{table}").read())
        if info["memory"]:  # P-40: a memory-mode view is no PlayerView
            raise RuntimeError("this client plays tables without memory mode")
        join = urllib.request.Request(f"{url.rstrip('/')}/api/bot/tables/{table}/join", b"{}", auth)
        try:
            seat = json.loads(urllib.request.urlopen(join).read())
        except urllib.error.HTTPError as err:  # refused: the server says why, in words
            raise RuntimeError(json.loads(err.read()).get("message", str(err))) from None
    socket = f"ws{url[4:]}/ws/tables/{table}"  # http://… → ws://…, https://… → wss://…
    async with websockets.connect(socket, additional_headers=auth) as ws:
        await ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
        data, version, done = None, 0, None
        pings = asyncio.create_task(ping(ws))  # a silent socket is closed after 2 minutes
        async for text in ws:
            msg = json.loads(text)
            version = max(version, msg.get("version") or 0)
            kind, new = msg["type"], msg.get("view")
            if kind in ("snapshot", "table"):  # the host starts its table once it is full
                me, tb = msg.get("seat", seat.get("seat")), msg["table"]
                if tb["status"] == "open" and tb["host"] == me and all(tb["seats"]):
                    await ws.send('{"type": "start"}')
            if kind == "snapshot" or (kind == "update" and new and new["actions"] is not None):
                data = new
            elif kind == "update" and new:  # a move: what you hold already comes once
                data = merged(data, msg)
            elif kind == "error" and msg["code"] in ("bad_bot_token", "bot_token_revoked"):
                raise RuntimeError(msg["message"])
            elif kind == "error":  # refused (the bid changed…): catch up, decide again
                done = None
                await ws.send(json.dumps({"type": "sync", "last_version": version}))
            if data is None or done == version:
                continue
            if data["winner"] is not None:
                pings.cancel()
                return data
            view = view_from_json(data)
            mine = view.to_act == view.seat
            if mine or (Calza() in view.legal and calza(view)):
                action = decide(view) if mine else Calza()
                on = [view.round, data["bid"]]
                act = {"type": "act", "action": str(action), "version": version, "on": on}
                await ws.send(json.dumps(act))
                done = version


async def play_now(url, token, decide, calza=lambda view: False, preset="perudo", seats=2):
    """Wait in an unrated Play-now pool until a table seats the bot, then play it."""
    auth = {"Authorization": f"Bearer {token}"}
    async with websockets.connect(f"ws{url[4:]}/ws/play", additional_headers=auth) as ws:
        await ws.send(json.dumps({"type": "play_join", "preset": preset, "seats": seats}))
        pings = asyncio.create_task(ping(ws))  # the pool's socket too, however long the wait
        async for text in ws:
            if (msg := json.loads(text))["type"] == "play_matched":
                break
            if msg["type"] == "error":
                raise RuntimeError(msg["message"])
        else:
            raise RuntimeError("the pool socket closed before a table was made")
        pings.cancel()
    return await play(url, token, msg["table_id"], decide, calza, seat=msg)


if __name__ == "__main__":
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("url"), cli.add_argument("token"), cli.add_argument("bot")
    where = cli.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", help="the table's id (its invite: /t/ID)")
    where.add_argument("--play-now", metavar="PRESET", help="wait in this rule set's pool")
    args = cli.parse_args()
    sys.path.insert(1, os.getcwd())  # module:Class from the folder it is run in
    bot = make_bot(args.bot)
    if args.table:
        game = play(args.url, args.token, args.table, bot.act, bot.call_calza)
    else:
        game = play_now(args.url, args.token, bot.act, bot.call_calza, args.play_now)
    try:
        end = asyncio.run(game)
    except (RuntimeError, OSError, websockets.ConnectionClosed) as err:
        sys.exit(f"stopped: {err}")
    print("game over:", "the bot won" if end["winner"] == end["seat"] else "the bot lost")
