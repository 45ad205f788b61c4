"""Fixtures: a real throngd on a free loopback port, the scenario tool, a synthetic run.

CTest passes THRONGD and THRONG_SCENARIO_TOOL (clients/python/CMakeLists.txt). A test
that needs one fails when it is not set: a suite that skipped every server test would
pass without testing anything. By hand: THRONGD=build/service/throngd
THRONG_SCENARIO_TOOL=build/clients/cpp/throng-scenario pytest tests/python"""

import os
import subprocess

import numpy as np
import pytest


def _binary(env):
    path = os.environ.get(env)
    if not path or not os.access(path, os.X_OK):
        pytest.fail(f"{env} not set to an executable (CTest sets it; see this file's "
                    "docstring to run by hand)", pytrace=False)
    return path


class Server:
    """throngd --listen 127.0.0.1:0: the kernel picks a free port, throngd prints it."""

    def __init__(self, path, *flags):
        self.proc = subprocess.Popen(
            [path, "--listen", "127.0.0.1:0", "--metrics", "", "--backend", "cpu", *flags],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "2")))
        line = self.proc.stdout.readline()
        if "listening on" not in line:
            self.proc.kill()
            raise RuntimeError(f"throngd did not start: {line!r} {self.proc.stderr.read()}")
        self.address = line.split()[-1]

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="session")
def throngd_path():
    return _binary("THRONGD")


@pytest.fixture(scope="session")
def server(throngd_path):
    s = Server(throngd_path)
    yield s.address
    s.stop()


@pytest.fixture(scope="session")
def scenario_tool():
    return _binary("THRONG_SCENARIO_TOOL")


@pytest.fixture
def client(server):
    import throng
    with throng.Client(server, timeout=60) as c:
        c.wait_ready(10)
        yield c


def synthetic_run(ticks=12, n=40, m=3):
    """A recording in the shape run_scenario writes: agents walking right, vehicles on a
    ring, one obstacle, statuses that change over time."""
    t = np.arange(ticks)[:, None]
    rng = np.random.default_rng(1)
    x0, y0 = rng.uniform(-10, 0, n), rng.uniform(-5, 5, n)
    angle = 0.1 * t + np.linspace(0, 2 * np.pi, m, endpoint=False)
    status = np.zeros((ticks, n), np.uint8)
    status[ticks // 2:, :5] = 1
    flags = np.zeros((ticks, n), np.uint8)
    flags[:, 5:8] = 1
    ring = [(20 * np.cos(a), 20 * np.sin(a), 0) for a in np.linspace(0, 2 * np.pi, 12, endpoint=False)]
    stats = {k: rng.integers(0, 3, ticks) for k in (
        "ok", "safe_stop", "emergency", "oscillating", "stalled", "stopped", "agent_overlaps",
        "vehicle_overlaps", "agents_in_obstacles", "vehicles_braking")}
    return dict(
        agent_x=(x0 + 1.0 * t).astype(np.float32), agent_y=np.broadcast_to(y0, (ticks, n)).astype(np.float32),
        agent_status=status, agent_flags=flags, agent_radius=np.full(n, 0.3, np.float32),
        vehicle_x=(20 * np.cos(angle)).astype(np.float32), vehicle_y=(20 * np.sin(angle)).astype(np.float32),
        vehicle_yaw=(angle + np.pi / 2).astype(np.float32), vehicle_speed=np.full((ticks, m), 2, np.float32),
        vehicle_target_x=(20 * np.cos(angle + 0.2)).astype(np.float32),
        vehicle_target_y=(20 * np.sin(angle + 0.2)).astype(np.float32),
        vehicle_length=np.full(m, 4.5, np.float32), vehicle_width=np.full(m, 1.8, np.float32),
        spline_points=np.array(ring, np.float32)[:, :2], spline_offsets=np.array([0, 12]),
        spline_closed=np.array([True]),
        obstacle_points=np.array([[2, 2], [4, 2], [4, 4], [2, 4]], np.float32),
        obstacle_offsets=np.array([0, 4]),
        tick=np.arange(ticks), latency_s=rng.uniform(0.001, 0.01, ticks),
        server_s=rng.uniform(0.0005, 0.005, ticks),
        scenario=np.array("synthetic"), size=np.array(n), seed=np.array(1),
        dt=np.array(0.1, np.float32), backend=np.array("none"), flip_vertical=np.array(False),
        **stats)
