"""Debian's nginx in front of test servers, running the repository's own configurations with
a self-signed certificate made by ``openssl`` for the test: ``deploy/nginx/perudo.conf`` in
front of one process (:class:`Nginx`), ``deploy/nginx/cluster.conf`` balancing several
(:class:`NginxBalancer`).

Only what must differ on a test machine is swapped, each by an exact string that must be in the
file (so a change to the file that the test no longer matches fails loudly): the listening
ports (loopback, free ports), the certificate's paths and the upstream's port (or, for the
balancer, its lines of processes). nginx runs in the
foreground as a child process with its pid, logs and temporary files in the test's folder, and
is stopped after the test. Without nginx (``make nginx`` installs Debian's) the tests skip and
say so.
"""

from __future__ import annotations

import os
import shutil
import ssl
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest
from tests.server.harness import ROOT, free_port, stop_process, wait_healthy

NGINX = Path("/usr/sbin/nginx")
CONF = ROOT / "deploy" / "nginx" / "perudo.conf"
CLUSTER_CONF = ROOT / "deploy" / "nginx" / "cluster.conf"
CLUSTER_SERVER = "server 127.0.0.1:{port} max_fails=2 fail_timeout=5s;"
"""One line of cluster.conf's upstream block (its example lists ports 8001 to 8003)."""
HOSTNAME = "dice.example.org"
NO_NGINX = (
    "Debian's nginx is not installed at /usr/sbin/nginx (`make nginx` installs it with apt; "
    "it could not be installed here)"
)


def require_nginx() -> None:
    if not NGINX.exists():
        pytest.skip(NO_NGINX)
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed (it makes the test's certificate)")


def _swap(text: str, old: str, new: str, conf: Path = CONF) -> str:
    assert text.count(old) >= 1, f"deploy/nginx/{conf.name} no longer has {old!r}"
    return text.replace(old, new)


class Nginx:
    """nginx with ``deploy/nginx/perudo.conf`` proxying to ``127.0.0.1:upstream_port``."""

    conf = CONF
    worker_connections = 256
    """Each proxied socket takes two (the client's and the upstream's): a load benchmark
    raises it."""

    def __init__(self, workdir: Path, upstream_port: int) -> None:
        self.dir = workdir / "nginx"
        self.dir.mkdir(exist_ok=True)
        self.http_port = free_port()
        self.https_port = free_port()
        self.cert = self.dir / "cert.pem"
        self.key = self.dir / "key.pem"
        self.upstream_port = upstream_port
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.https_port}"

    def tls(self) -> ssl.SSLContext:
        """A client context that trusts the test's certificate (and verifies it)."""
        return ssl.create_default_context(cafile=str(self.cert))

    def _certificate(self) -> None:
        subprocess.run(
            [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                "-keyout", str(self.key), "-out", str(self.cert), "-subj", f"/CN={HOSTNAME}",
                "-addext", f"subjectAltName=DNS:{HOSTNAME},IP:127.0.0.1",
            ],
            check=True,
            capture_output=True,
        )  # fmt: skip

    def _upstream(self, site: str) -> str:
        return _swap(site, "server 127.0.0.1:8000;", f"server 127.0.0.1:{self.upstream_port};")

    def _config(self) -> Path:
        c = self.conf
        site = c.read_text()
        site = _swap(site, "listen 80;", f"listen 127.0.0.1:{self.http_port};", c)
        site = _swap(site, "listen [::]:80;", "", c)
        site = _swap(site, "listen 443 ssl;", f"listen 127.0.0.1:{self.https_port} ssl;", c)
        site = _swap(site, "listen [::]:443 ssl;", "", c)
        site = _swap(site, f"/etc/letsencrypt/live/{HOSTNAME}/fullchain.pem", str(self.cert), c)
        site = _swap(site, f"/etc/letsencrypt/live/{HOSTNAME}/privkey.pem", str(self.key), c)
        site = self._upstream(site)
        (self.dir / "perudo.conf").write_text(site)
        d = self.dir
        main = f"""
            worker_processes 1;
            worker_rlimit_nofile {2 * self.worker_connections + 64};
            pid {d}/nginx.pid;
            error_log {d}/error.log warn;
            events {{ worker_connections {self.worker_connections}; }}
            http {{
                access_log {d}/access.log;
                client_body_temp_path {d}/body;
                proxy_temp_path {d}/proxy;
                fastcgi_temp_path {d}/fastcgi;
                uwsgi_temp_path {d}/uwsgi;
                scgi_temp_path {d}/scgi;
                include {d}/perudo.conf;
            }}
        """
        conf = d / "nginx.conf"
        conf.write_text(main)
        return conf

    def start(self) -> Nginx:
        self._certificate()
        conf = self._config()
        # Started as root, nginx's workers would switch to "nobody", who cannot read the test's
        # folder: they stay root here.
        user = ["-g", "daemon off; user root;"] if os.geteuid() == 0 else ["-g", "daemon off;"]
        check = subprocess.run(
            [str(NGINX), "-t", "-p", str(self.dir), "-c", str(conf), *user],
            capture_output=True,
            text=True,
        )
        assert check.returncode == 0, f"nginx -t refused the configuration:\n{check.stderr}"
        log = (self.dir / "stderr.log").open("wb")
        self.proc = subprocess.Popen(
            [str(NGINX), "-p", str(self.dir), "-c", str(conf), *user],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self._wait_ready()
        return self

    def _wait_ready(self) -> None:
        wait_healthy(
            self.proc,
            self.url + "/healthz",
            lambda: (self.dir / "error.log").read_text(),
            seconds=15,
            context=self.tls(),
        )

    def stop(self) -> None:
        stop_process(self.proc)


class NginxBalancer(Nginx):
    """nginx with ``deploy/nginx/cluster.conf`` balancing over ``127.0.0.1:port`` for each of
    ``upstream_ports`` (its example's three lines swapped for one line per port, each with the
    file's own health-check settings). ``ws_url`` is the ``wss://`` root for the tables'
    sockets; pass ``ssl=balancer.tls()`` to ``websockets.connect``.

    ``start()`` waits until the balancer answers ``/healthz`` through some process, so start at
    least one process first."""

    conf = CLUSTER_CONF

    def __init__(self, workdir: Path, upstream_ports: Sequence[int]) -> None:
        assert upstream_ports, "the balancer needs at least one process"
        super().__init__(workdir, upstream_ports[0])
        self.upstream_ports = list(upstream_ports)

    @property
    def ws_url(self) -> str:
        return f"wss://127.0.0.1:{self.https_port}"

    def _upstream(self, site: str) -> str:
        example = "".join(f"    {CLUSTER_SERVER.format(port=p)}\n" for p in (8001, 8002, 8003))
        ours = "".join(f"    {CLUSTER_SERVER.format(port=p)}\n" for p in self.upstream_ports)
        return _swap(site, example, ours, self.conf)
