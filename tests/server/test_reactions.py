"""Quick reactions at a table (``react`` → ``reaction``, perudo.server.tables.reactions), on a
real server: a seat's reaction reaches everyone at the table once, without a version (never
stored, never part of the game, so no rule is touched: P-70 holds as nothing of a hand is in
it); an unknown emote and a spectator's reaction are refused and reach nobody; a seat may
react a few times in a row, then one more is refused with ``rate_limited``."""

from __future__ import annotations

from tests.server.harness import Client, ServerProcess, heads_up, run

from perudo.server.tables.reactions import BURST


def _reactions(c: Client) -> list[dict[str, object]]:
    return [m for m in c.messages if m["type"] == "reaction"]


def test_a_reaction_reaches_everyone_at_the_table_once_and_bad_ones_reach_nobody(
    server: ServerProcess,
) -> None:
    async def go() -> None:
        ann, bo = await heads_up(server)
        spectator = await Client(server, ann.table_id).connect()
        version = ann.version
        await ann.send({"type": "react", "emote": "haha"})
        for c in (ann, bo, spectator):
            m = await c.next(lambda m: m["type"] == "reaction")
            assert m == {"type": "reaction", "seat": ann.seat, "emote": "haha"}
        await bo.send({"type": "react", "emote": "gg"})
        m = await ann.next(lambda m: m["type"] == "reaction")
        assert m == {"type": "reaction", "seat": bo.seat, "emote": "gg"}
        # An emote that is not one, and a spectator's reaction: refused, sent to nobody.
        await ann.send({"type": "react", "emote": "<script>"})
        err = await ann.error()
        assert err["code"] == "bad_message" and "emote" in err["message"]
        await spectator.send({"type": "react", "emote": "wow"})
        err = await spectator.error()
        assert err["code"] == "not_seated"
        for c in (ann, bo, spectator):
            await c.ping()  # everything sent before is in
            assert len(_reactions(c)) == 2
        assert (await ann.ping())["version"] == version  # no version: nothing stored
        for c in (ann, bo, spectator):
            await c.close()

    run(go())


def test_a_seat_reacts_a_few_times_in_a_row_then_is_refused(server: ServerProcess) -> None:
    async def go() -> None:
        ann, bo = await heads_up(server)
        for _ in range(BURST + 1):
            await ann.send({"type": "react", "emote": "wow"})
        err = await ann.error()
        assert err["code"] == "rate_limited"
        await bo.ping()
        assert len(_reactions(bo)) == BURST
        # Another seat's bucket is its own.
        await bo.send({"type": "react", "emote": "ouch"})
        m = await ann.next(lambda m: m["type"] == "reaction")
        assert m["seat"] == bo.seat
        await ann.close()
        await bo.close()

    run(go())
