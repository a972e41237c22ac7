"""``GET /healthz``: the server is up (and how many tables it holds)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from .common import lobby_of

__all__ = ["router"]

router = APIRouter()


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, Any]:
    return {"ok": True, "tables": len(lobby_of(request).tables)}
