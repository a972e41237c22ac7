"""Friends over two processes on one PostgreSQL and one Redis (perudo.server.social.shared,
docs/server.md#friends): a person whose pages are open on one process is seen online, at her
table, from the other; an invitation made on one reaches the invited person's page on the
other, and accepting there seats them at the table its owner drives; a blocked player's join
through the other process is refused by the table's owner; only a seated person invites."""

from __future__ import annotations

import json
from pathlib import Path

import websockets
from tests.server.cluster import Processes
from tests.server.harness import run
from tests.server.test_friends import Person


def test_presence_invitations_and_blocks_hold_across_processes(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    procs = Processes(
        tmp_path,
        postgres_url,
        redis_url,
        2,
        PERUDO_ARGON2_MEMORY_KIB="8192",
        PERUDO_ARGON2_TIME_COST="1",
    )
    try:
        procs.start()
        one, two = procs.servers
        ann = Person(one, "ann")
        cy, bo = Person(two, "cy"), Person(two, "bo")

        async def go() -> None:
            t = ann.table()
            tid = t["table_id"]
            table_ws = await websockets.connect(
                f"{one.ws_url}/ws/tables/{tid}", additional_headers={"cookie": ann.cookie}
            )
            await table_ws.send(json.dumps({"type": "hello", "token": t["token"]}))
            assert json.loads(await table_ws.recv())["type"] == "snapshot"
            ann_notices = await ann.notices()
            assert cy.call("POST", f"/api/friends/{ann.name}/follow").status_code == 204
            (friend,) = cy.friends()["following"]
            assert friend == {
                "name": ann.name,
                "online": True,
                "tables": [{"id": tid, "name": "Friday"}],
            }

            cy_notices = await cy.notices()
            out = ann.call("POST", "/api/invitations", {"name": cy.name, "table": tid})
            assert out.status_code == 201 and out.json()["delivered"] == 1, out.text
            got = await cy_notices.next()
            assert got["type"] == "invited" and got["invitation"]["table"] == tid
            seat = cy.call("POST", f"/api/invitations/{got['invitation']['id']}/accept").json()
            assert seat["table"] == tid and seat["token"], seat
            assert (await ann_notices.next())["type"] == "accepted"

            # Seated, Cy invites from the other process (its owner says she sits there);
            # Bo, not seated, cannot. Blocked by Ann, Bo cannot sit at her table from there.
            out = cy.call("POST", "/api/invitations", {"name": bo.name, "table": tid})
            assert out.status_code == 201, out.text
            out = bo.call("POST", "/api/invitations", {"name": cy.name, "table": tid})
            assert out.status_code == 403 and out.json()["error"] == "not_seated"
            assert ann.call("POST", f"/api/friends/{bo.name}/block").status_code == 204
            out = bo.call("POST", f"/api/tables/{tid}/join", {"name": "Bo"})
            assert out.status_code == 403 and out.json()["error"] == "blocked", out.text
            for ws in (table_ws, ann_notices, cy_notices):
                await ws.close()

        run(go())
    finally:
        procs.stop()
