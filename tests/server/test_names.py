"""Names are any Unicode: emoji sequences joined by zero-width joiners and subdivision flags
keep their invisible parts; control characters, and joiners or tags anywhere else, still go."""

from __future__ import annotations

import pytest

from perudo.server.tables import TableError
from perudo.server.tables.text import clean_name, clean_text


@pytest.mark.parametrize(
    "name",
    ["👩🏽‍🚀 Åsa", "🏴󠁧󠁢󠁳󠁣󠁴󠁿 Iain", "🏳️‍🌈 Sam", "안나", "Zoë 🎲", "🇮🇹 Giulia"],
)
def test_a_name_in_any_script_or_emoji_is_kept_whole(name: str) -> None:
    assert clean_name(name, "your name", 24) == name


def test_joiners_and_tags_outside_an_emoji_go_with_the_control_characters() -> None:
    assert clean_name(" Bo\x00\x1b[31m \t\n Lee ", "your name", 24) == "Bo[31m Lee"
    assert clean_name("A\u200dnn\u200d", "your name", 24) == "Ann"
    assert clean_text("hi\u200d\U000e0067 👋🏽\u200d") == "hi 👋🏽"
    with pytest.raises(TableError):
        clean_name("\u200d\x07", "your name", 24)
