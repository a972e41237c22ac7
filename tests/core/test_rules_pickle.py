"""A rule set sent to another process (a worker pool's task) is equal there to the same rules
built there, hash included: its cached hash is of strings, which each process seeds apart.

Both ends are fresh interpreters with different hash seeds (this test process may hold the
rules module twice: pytest collects its doctests with ``--import-mode=importlib``)."""

from __future__ import annotations

import os
import subprocess
import sys

SEND = """
import pickle, sys
from perudo.core import PRESETS
sys.stdout.buffer.write(pickle.dumps(dict(PRESETS)))
"""

CHECK = """
import pickle, sys
from perudo.core import PRESETS
sent = pickle.loads(sys.stdin.buffer.read())
for name, rules in sent.items():
    here = PRESETS[name]
    assert rules == here and hash(rules) == hash(here), name
    assert {here: 1}.get(rules) == 1, name
print("ok")
"""


def _python(code: str, seed: str, data: bytes = b"") -> bytes:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    out = subprocess.run(
        [sys.executable, "-c", code], input=data, capture_output=True, env=env, check=False
    )
    assert out.returncode == 0, out.stderr.decode()
    return out.stdout


def test_a_pickled_rule_set_keeps_its_place_in_another_processs_dicts() -> None:
    sent = _python(SEND, "1")
    assert _python(CHECK, "12345", sent).strip() == b"ok"
