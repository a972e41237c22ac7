"""A rule set sent to another process (a worker pool's task) is equal there to the same rules
built there, hash included: its cached hash is of strings, which each process seeds apart."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys

from perudo.core import PRESETS

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


def test_a_pickled_rule_set_keeps_its_place_in_another_processs_dicts() -> None:
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    data = pickle.dumps(dict(PRESETS))
    out = subprocess.run(
        [sys.executable, "-c", CHECK], input=data, capture_output=True, env=env, check=False
    )
    assert out.returncode == 0, out.stderr.decode()
    assert out.stdout.strip() == b"ok"
