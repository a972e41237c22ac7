"""The wire described: ``GET /api/protocol.schema.json``, the JSON Schema of every message the
server sends (and of the client's messages and a replay), exported from the pydantic models of
:mod:`perudo.server.protocol` and :mod:`perudo.server.payloads`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from .. import protocol as p

__all__ = ["router"]

router = APIRouter()


@router.get("/api/protocol.schema.json")
async def protocol_schema() -> dict[str, Any]:
    return p.json_schema()
