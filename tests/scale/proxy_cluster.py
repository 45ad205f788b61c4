"""Throngd replicas and nginx with deploy/nginx/throng-proxy.conf as processes on
loopback: the cluster of docs/OPERATIONS.md "Many replicas", for tests/scale and
bench/proxy_throughput.py."""

import os
import re
import socket
import subprocess
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
PROXY_CONF = os.path.join(HERE, "..", "..", "deploy", "nginx", "throng-proxy.conf")


class Throngd:
    """A throngd on a free port; a replica also serves its metrics, labelled with its name."""

    def __init__(self, path, replica=None, log=None, threads=1):
        flags = ["--metrics", "127.0.0.1:0", "--replica", replica] if replica else ["--metrics", ""]
        self.log = log
        self.proc = subprocess.Popen(
            [path, "--listen", "127.0.0.1:0", "--backend", "cpu", "--max-worlds", "200", *flags],
            stdout=subprocess.PIPE, stderr=open(log, "w") if log else subprocess.DEVNULL,
            text=True, env=dict(os.environ, OMP_NUM_THREADS=str(threads)))
        line = self.proc.stdout.readline()
        assert "listening on" in line, line
        self.address = line.split()[-1]
        self.replica = replica

    def metric(self, series):
        """The value of one series of this replica's /metrics (its log names the port)."""
        port = None
        for _ in range(50):
            found = re.search(r"metrics 127\.0\.0\.1:(\d+)/metrics", open(self.log).read())
            if found:
                port = found.group(1)
                break
            time.sleep(0.1)
        assert port, f"no metrics port in {self.log}"
        text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
        for line in text.splitlines():
            if line.startswith(series + " "):
                return float(line.split()[-1])
        return 0.0

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Nginx:
    """The committed configuration, with these replicas, a free port and a scratch prefix."""

    def __init__(self, path, replicas, tmp):
        conf = open(PROXY_CONF).read()
        servers = "\n".join(f"        server {r.address} max_fails=1 fail_timeout=10s;"
                            for r in replicas)
        conf, n = re.subn(r"(        server throngd-r\d:50051[^\n]*\n)+", servers + "\n", conf)
        assert n == 1, "the replica lines of throng-proxy.conf changed"
        self.port = free_port()
        conf, n = re.subn(r"listen 0\.0\.0\.0:50051 http2;", f"listen 127.0.0.1:{self.port} http2;",
                          conf)
        assert n == 1, "the listen line of throng-proxy.conf changed"
        conf = conf.replace("/tmp/", f"{tmp}/").replace("error_log stderr;", f"error_log {tmp}/error.log;")
        path_conf = os.path.join(tmp, "nginx.conf")
        open(path_conf, "w").write(conf)
        self.proc = subprocess.Popen(
            [path, "-p", str(tmp), "-e", f"{tmp}/error.log", "-c", path_conf, "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.1).close()
                break
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"nginx did not start: {self.proc.stderr.read()}")
                time.sleep(0.1)
        self.address = f"127.0.0.1:{self.port}"

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=30)
