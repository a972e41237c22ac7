"""A real Ray cluster for the tests, started the way a user starts one: ``ray start --head``,
and a worker node joining it with ``ray start --address=…`` (on this machine, as if another).

One head node on loopback, 2 CPUs, a 100 MB object store, no dashboard, every port chosen
free, its files in a short temporary directory (Ray's sockets live there and a Unix socket
path may not exceed 107 bytes). ``ray start`` runs in a session of its own, and every daemon
it leaves behind (GCS, raylet, their agents, the workers) stays in that process group; the
cluster is stopped by killing exactly that group, then any process whose command line names
its temporary directory. ``ray stop`` is not used: it stops every Ray process of the machine
by name, other people's included.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

__all__ = ["RAY_SETTINGS", "processes_naming", "ray_cluster", "ray_env"]

REPO = Path(__file__).resolve().parent.parent
"""The repository (its tests package is importable from here)."""


def _free_ports(n: int) -> list[int]:
    socks = []
    try:
        for _ in range(n):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


_TOKEN = secrets.token_hex(32)
RAY_SETTINGS = {
    "RAY_AUTH_MODE": "token",
    "RAY_AUTH_TOKEN": _TOKEN,
    "RAY_USAGE_STATS_ENABLED": "0",
}
"""Ray's environment for the tests: token authentication with a token of this session held in
the environment (Ray would otherwise write one to ``~/.ray/auth_token`` on a local start, and
a cluster started while that file exists refuses drivers without it), and no usage report
(the machine reaches no network)."""


def ray_env() -> dict[str, str]:
    """This environment with :data:`RAY_SETTINGS`, without ``RAY_ADDRESS`` (a test says which
    cluster it means) or ``RAY_AUTH_TOKEN_PATH``."""
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_ADDRESS", "RAY_AUTH_TOKEN_PATH")}
    # The cluster's workers import the tests' own bots (tests.arena.raising_bot) as a user's
    # cluster imports the user's: from its Python path.
    path = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    return {**env, **RAY_SETTINGS, "PYTHONPATH": path}


def processes_naming(temp: str) -> list[int]:
    """Live processes whose command line names ``temp`` (a Ray's temporary directory)."""
    return _ours(-1, temp)


def _ours(groups: int | tuple[int, ...], temp: str) -> list[int]:
    """Live (not zombie) processes of process group(s) ``groups`` or naming ``temp``."""
    if isinstance(groups, int):
        groups = (groups,)
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()  # after "pid (name)": state, ppid, pgrp…
        if fields[0] == "Z":
            continue
        if int(fields[2]) in groups or temp in cmdline:
            pids.append(int(entry.name))
    return pids


def _kill(
    groups: int | tuple[int, ...], temp: str, timeout: float = 3.0, grace: float = 0.5
) -> list[int]:
    """Stop our processes: TERM, then KILL to those left after ``grace`` seconds (Ray's GCS
    server and raylets do not exit on TERM within seconds, so a longer wait only adds to the
    suite's time); the pids still there ``timeout`` seconds after the KILL."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, timeout)):
        for pid in _ours(groups, temp):
            with suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)
        deadline = time.monotonic() + wait
        while _ours(groups, temp) and time.monotonic() < deadline:
            time.sleep(0.05)
        if not _ours(groups, temp):
            return []
    return _ours(groups, temp)


def _ray_start(ray: str, role: list[str], ports: list[str]) -> tuple[subprocess.Popen[str], str]:
    """``ray start`` with the ports given (each node its own), run in a session of its own (the
    daemons it leaves running stay in its process group); its process and what it printed."""
    keys = ["node-manager", "object-manager", "dashboard-agent-grpc"]
    keys += ["dashboard-agent-listen", "metrics-export", "runtime-env-agent"]
    args = [ray, "start", *role, "--node-ip-address=127.0.0.1"]
    args += ["--object-store-memory=100000000", "--disable-usage-stats"]
    args += [f"--{key}-port={port}" for key, port in zip(keys, ports, strict=True)]
    proc = subprocess.Popen(
        args,
        env=ray_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        out = f"{' '.join(args[1:3])} took over 120 s"
    return proc, out


def _start(ray: str, temp: str) -> tuple[subprocess.Popen[str], int, str]:
    """Run ``ray start --head``: its process, the GCS port, and what it printed."""
    gcs, dash, *ports = _free_ports(8)
    head = ["--head", f"--port={gcs}", "--num-cpus=2", "--include-dashboard=false"]
    head += [f"--dashboard-port={dash}", f"--temp-dir={temp}"]
    proc, out = _ray_start(ray, head, [str(p) for p in ports])
    return proc, gcs, out


def _join(ray: str, address: str) -> subprocess.Popen[str]:
    """``ray start --address=…``: a worker node joins, as on another machine (here on this
    one, with ports of its own and one CPU)."""
    role = [f"--address={address}", "--num-cpus=1"]
    proc, out = _ray_start(ray, role, [str(p) for p in _free_ports(6)])
    if proc.returncode != 0:
        raise _JoinFailed(proc, out)
    return proc


class _JoinFailed(RuntimeError):
    def __init__(self, proc: subprocess.Popen[str], out: str) -> None:
        super().__init__(f"a worker node could not join:\n{out}")
        self.proc = proc


@contextmanager
def ray_cluster(attempts: int = 2, workers: int = 0) -> Iterator[str]:
    """Start a cluster (a head, and ``workers`` worker nodes joining it); yield its address
    (``127.0.0.1:PORT``); stop it.

    ``ray start`` gives the raylet 30 s to register (a constant of Ray's): on a machine
    loaded by other work it can miss that, so a failed head start is cleaned up and tried
    again.
    """
    ray = shutil.which("ray", path=str(Path(sys.executable).parent))
    if ray is None:
        raise RuntimeError("no `ray` command next to this Python: pip install 'perudo[research]'")
    for attempt in range(1, attempts + 1):
        temp = tempfile.mkdtemp(prefix="ray-", dir="/tmp")
        proc, gcs, out = _start(ray, temp)
        joined: list[subprocess.Popen[str]] = []
        try:
            if proc.returncode != 0:
                if attempt < attempts:
                    continue
                raise RuntimeError(f"ray start failed {attempts} times; the last time:\n{out}")
            for _ in range(workers):  # like the head, a node gets a second try
                for join in range(1, attempts + 1):
                    try:
                        joined.append(_join(ray, f"127.0.0.1:{gcs}"))
                        break
                    except _JoinFailed as failed:
                        _kill(failed.proc.pid, "/nothing-names-this")
                        if join == attempts:
                            raise
            yield f"127.0.0.1:{gcs}"
            return
        finally:
            # One pass over every node (the worker nodes' processes name the head's folder).
            left = _kill((*(node.pid for node in joined), proc.pid), temp)
            shutil.rmtree(temp, ignore_errors=True)
            if left:
                raise RuntimeError(f"Ray processes {left} outlived the cluster's stop")
