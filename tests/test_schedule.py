"""The order ``make test`` hands the test files to its workers (tests/schedule.py)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.schedule import UNKNOWN_SECONDS, Recorder, longest_first, recorded, scope_of


def test_files_go_out_longest_first() -> None:
    paths = {"tests/a/test_short.py", "tests/b/test_long.py", "tests/c/test_new.py"}
    seconds = {"tests/a/test_short.py": 1.0, "tests/b/test_long.py": 60.0}
    # The one missing from the record counts UNKNOWN_SECONDS: between the two.
    assert 1.0 < UNKNOWN_SECONDS < 60.0
    assert longest_first(sorted(paths), paths, seconds) == [
        "tests/b/test_long.py",
        "tests/c/test_new.py",
        "tests/a/test_short.py",
    ]


def test_the_ray_files_are_one_unit_whose_estimate_is_their_sum() -> None:
    arena, sim, mid = "tests/arena/test_arena_ray.py", "tests/sim/test_rollouts.py", "tests/x/m.py"
    assert scope_of(f"{arena}::test_x") == scope_of(f"{sim}::test_y") == "ray"
    # 20 + 20 together outrank the 30 s file.
    seconds = {arena: 20.0, sim: 20.0, mid: 30.0}
    assert longest_first([mid, "ray"], {arena, sim, mid}, seconds) == ["ray", mid]


def test_each_worker_gets_whole_units_and_the_longest_first() -> None:
    """The scheduler itself, with fake workers: every test is run once, a unit's tests on one
    worker, and the first units handed out are the longest."""
    from tests.schedule import make_scheduler

    class Opt:
        loadscopereorder = True
        tx = ("2*popen",)

    class Config:
        option = Opt()

        def getvalue(self, name: str) -> object:
            return getattr(Opt, name, None)

    class Worker:
        def __init__(self, name: str) -> None:
            self.gateway = type("G", (), {"id": name})()
            self.shutting_down = False
            self.sent: list[list[int]] = []

        def send_runtest_some(self, indexes: list[int]) -> None:
            self.sent.append(indexes)

        def shutdown(self) -> None:
            self.shutting_down = True

    collection = [
        "tests/a/test_short.py::t1",
        "tests/a/test_short.py::t2",
        "tests/arena/test_arena_ray.py::t",
        "tests/b/test_long.py::t",
        "tests/sim/test_rollouts.py::t",
    ]
    sched = make_scheduler(Config(), None)
    workers = [Worker("gw0"), Worker("gw1")]
    for w in workers:
        sched.add_node(w)
        sched.add_node_collection(w, collection)
    sched.schedule()
    firsts = [collection[w.sent[0][0]].split("::")[0] for w in workers]
    # Neither file is recorded under these names but the ray group's two files: it goes first.
    assert firsts[0] == "tests/arena/test_arena_ray.py"
    ran = sorted(i for w in workers for batch in w.sent for i in batch)
    assert ran == list(range(len(collection)))
    for w in workers:
        mine = [collection[i] for batch in w.sent for i in batch]
        if "tests/arena/test_arena_ray.py::t" in mine:
            assert "tests/sim/test_rollouts.py::t" in mine


def test_the_recorder_writes_what_the_schedule_reads(tmp_path: Path) -> None:
    out = tmp_path / "durations.json"
    rec = Recorder(out)
    for nodeid, s in [("tests/a.py::t1", 1.25), ("tests/a.py::t2", 2.0), ("tests/b.py::t", 9.0)]:
        rec.add(nodeid, s)
    rec.write()
    assert list(json.loads(out.read_text()).items()) == [("tests/b.py", 9.0), ("tests/a.py", 3.2)]


def test_the_committed_durations_name_files_that_exist() -> None:
    root = Path(__file__).resolve().parent.parent
    durations = recorded()
    assert durations, "tests/durations.json is missing or empty"
    missing = [path for path in durations if not (root / path).is_file()]
    assert not missing, f"tests/durations.json names files that are gone: {missing}"
