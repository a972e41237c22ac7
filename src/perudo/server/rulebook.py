"""The rules page (``/rules/{lang}``): the project's rule book, rendered from its own texts.

One source per language: ``docs/rules.md`` (English), ``docs/rules.ko.md`` and
``docs/rules.it.md``, which the package carries as ``perudo/server/rules/{en,ko,it}.md``
(links to those files, so there is no second copy; a built wheel holds their contents). Each rule
starts with an anchor (``<a id="P-34">``) that stays in the page, invisible, so that a "why?"
link can point at ``/rules/en#P-34``; players never see a rule id. HTML comments (notes for
developers) are left out.

>>> html = render("ko")
>>> '<html lang="ko">' in html and "팔라피코" in html and 'id="P-34"' in html
True
>>> pick_language("it-IT,it;q=0.9,en;q=0.5")
'it'
>>> pick_language("fr-FR,de;q=0.8")
'en'
"""

from __future__ import annotations

import functools
import html as html_lib
import re
from importlib import resources

from markdown_it import MarkdownIt

__all__ = ["LANGUAGES", "pick_language", "render", "source"]

LANGUAGES = {"en": "English", "ko": "한국어", "it": "Italiano"}
"""The rule book's languages, as the page's language picker names them."""

_BACK = {"en": "Lobby", "ko": "로비", "it": "Sala"}
_COMMENT = re.compile(r"<!--.*?-->\s*", re.S)

_STYLE = """
.rulebook { max-width: 46rem; margin: 0 auto; padding: 1rem 1.25rem 4rem; line-height: 1.6; }
.rulebook h1 { font-size: 1.8rem; margin: 1rem 0; }
.rulebook h2 { font-size: 1.3rem; margin-top: 2rem; }
.rulebook blockquote { margin: 0.75rem 0; padding: 0.5rem 1rem; border-left: 3px solid #e0a82e;
  background: rgba(255, 255, 255, 0.05); border-radius: 0 8px 8px 0; }
.rulebook blockquote p { margin: 0; }
.rulebook .table-wrap { overflow-x: auto; }
.rulebook table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
.rulebook th, .rulebook td { border: 1px solid rgba(255, 255, 255, 0.15); padding: 0.4rem 0.6rem;
  vertical-align: top; text-align: left; }
.rulebook code { overflow-wrap: anywhere; }
.top .brand { white-space: nowrap; }
.rulebook-langs { display: flex; gap: 0.25rem 0.75rem; flex-wrap: wrap; justify-content: flex-end; }
.rulebook-langs a[aria-current] { font-weight: 700; text-decoration: none; }
"""


def source(lang: str) -> str:
    """The rule book's Markdown text in ``lang`` (one of :data:`LANGUAGES`).

    :raises KeyError: for another language.
    """
    if lang not in LANGUAGES:
        raise KeyError(lang)
    return resources.files("perudo.server").joinpath("rules", f"{lang}.md").read_text("utf-8")


def pick_language(accept_language: str | None) -> str:
    """The first of :data:`LANGUAGES` in an ``Accept-Language`` header (by its order and
    weights), or English."""
    best: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        code = tag.strip().lower().split("-")[0]
        if code in LANGUAGES and q > 0:
            best.append((-q, i, code))
    return min(best)[2] if best else "en"


@functools.cache
def render(lang: str) -> str:
    """The whole ``/rules/{lang}`` page (HTML), built once per language.

    :raises KeyError: for a language not in :data:`LANGUAGES`.
    """
    md = MarkdownIt("commonmark", {"html": True, "typographer": False}).enable("table")
    body = md.render(_COMMENT.sub("", source(lang)))
    body = body.replace("<table>", '<div class="table-wrap"><table>').replace(
        "</table>", "</table></div>"
    )
    title = html_lib.escape(source(lang).splitlines()[0].lstrip("# ").strip())
    langs = " ".join(
        f'<a href="/rules/{code}" hreflang="{code}" lang="{code}"'
        + (' aria-current="page"' if code == lang else "")
        + f' data-testid="rules-lang-{code}">{name}</a>'
        for code, name in LANGUAGES.items()
    )
    return f"""<!doctype html>
<html lang="{lang}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title} · Perudo</title>
  <link rel="stylesheet" href="/static/app.css">
  <style>{_STYLE}</style>
</head>
<body>
  <header class="top">
    <a class="brand" href="/" data-testid="rules-back">&larr; {_BACK[lang]}</a>
    <div class="spacer"></div>
    <nav class="rulebook-langs" aria-label="Language">{langs}</nav>
  </header>
  <main class="rulebook" data-testid="rulebook">
{body}  </main>
</body>
</html>
"""
