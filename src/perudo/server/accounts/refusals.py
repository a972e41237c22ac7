"""The accounts' refusals: ``{error, message, texts}`` (``texts``: the reason in English,
Korean and Italian), as the lobby's are. A module of its own, importing nothing of the
server's, so the game routes use it without importing the account routes (which import them)."""

from __future__ import annotations

from fastapi.responses import JSONResponse

from perudo.i18n import LANGS, load_catalog

__all__ = ["refused"]


def refused(code: str, key: str, status: int) -> JSONResponse:
    """A refusal, its reason ``account.<key>`` in every language."""
    texts = {lang: load_catalog(lang).t(f"account.{key}") for lang in LANGS}
    return JSONResponse({"error": code, "message": texts["en"], "texts": texts}, status_code=status)
