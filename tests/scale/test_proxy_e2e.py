"""Many worlds over three throngd replicas behind nginx (deploy/nginx/throng-proxy.conf),
as docs/OPERATIONS.md "Many replicas" runs them, all as real processes on loopback:

- 60 worlds created and stepped 100 ticks through the proxy from 4 client threads give
  results bit-identical to the same worlds run alone on one throngd, and each world lives
  on exactly one replica;
- the C++ client's game_loop, naming its world, steps it through the proxy;
- a replica killed by PID while four clients step the other replicas' worlds: its worlds
  fail with a clear status within the call's deadline, the others keep stepping without
  an error, and its worlds, exported before and imported through the proxy, continue bit
  for bit.

CTest passes THRONGD, THRONG_SCENARIO_TOOL, GAME_LOOP and NGINX (tests/scale/CMakeLists.txt)."""

import concurrent.futures
import os
import signal
import subprocess
import threading
import time

import numpy as np
import pytest

import throng
from proxy_cluster import Nginx, Throngd

WORLDS, TICKS, THREADS = 60, 100, 4


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    throngd = os.environ.get("THRONGD")
    nginx = os.environ.get("NGINX")
    if not throngd or not nginx:
        pytest.fail("THRONGD and NGINX must be set (CTest sets them)", pytrace=False)
    logs = tmp_path_factory.mktemp("replicas")
    replicas = [Throngd(throngd, f"r{k}", logs / f"r{k}.log") for k in range(3)]
    alone = Throngd(throngd)
    proxy = Nginx(nginx, replicas, tmp_path_factory.mktemp("nginx"))
    yield replicas, alone, proxy
    proxy.stop()
    for r in replicas + [alone]:
        r.stop()


def world_scene(i):
    return throng.make_scenario("random", 40, seed=i + 1)


def run_world(client, i, ticks):
    """World proxy-i through `client`: the scenario's first step, then `ticks` - 1 Advance
    ticks, one at a time. Returns every tick's columns as bytes."""
    scene = world_scene(i)
    world = f"proxy-{i}"
    out = []
    assert client.create_world(scene, world_id=world).world_id == world
    r = client.step(world, scene.tick, scene.dt, scene.agents, integrate=True)
    out.append(b"".join(r.agents[k].tobytes() for k in ("vx", "vy", "x", "y")))
    for _ in range(ticks - 1):
        r, _ = client.advance(world, 1, scene.dt)
        out.append(b"".join(r.agents[k].tobytes() for k in ("vx", "vy", "x", "y")))
    return out


def run_worlds(address, worlds, threads):
    """Worlds 0..worlds-1 over `threads` client threads, each with one channel (as a game
    server keeps one), world i on thread i % threads. Returns each world's ticks."""
    def thread(k):
        with throng.Client(address, timeout=30) as c:
            c.wait_ready(30)
            return {i: run_world(c, i, TICKS) for i in range(k, worlds, threads)}

    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        done = {}
        for part in pool.map(thread, range(threads)):
            done.update(part)
    return [done[i] for i in range(worlds)]


def worlds_on(replica):
    with throng.Client(replica.address, timeout=30) as c:
        return {w.world_id for w in c.list_worlds()}


def test_worlds_through_the_proxy_equal_worlds_alone(cluster):
    replicas, alone, proxy = cluster
    proxied = run_worlds(proxy.address, WORLDS, THREADS)
    direct = run_worlds(alone.address, WORLDS, 1)
    for i in range(WORLDS):
        assert len(proxied[i]) == TICKS
        assert proxied[i] == direct[i], f"world proxy-{i} differs through the proxy"

    homes = [worlds_on(r) for r in replicas]
    everywhere = set().union(*homes)
    assert everywhere == {f"proxy-{i}" for i in range(WORLDS)}
    assert sum(len(h) for h in homes) == WORLDS, "a world lives on two replicas"
    assert sum(1 for h in homes if h) >= 2, f"the hash used one replica: {list(map(len, homes))}"
    # Each replica's metrics, labelled with its name, count the ticks of its worlds alone.
    for r, home in zip(replicas, homes):
        ticks = r.metric(f'throng_ticks_total{{replica="{r.replica}",backend="cpu"}}')
        assert ticks == len(home) * TICKS, (r.replica, ticks, len(home))


def test_the_cpp_client_routes_its_calls(cluster, tmp_path):
    """game_loop (the C++ client) names its world and every call carries the id: its
    creation, Steps and stream reach the one replica that holds the world."""
    replicas, _, proxy = cluster
    town = tmp_path / "town.v1.json"
    subprocess.run([os.environ["THRONG_SCENARIO_TOOL"], "town", "--size", "100", "--proto",
                    "-o", str(town)], check=True)
    for k, mode in enumerate(["", "--stream", "", "--stream"]):
        world = f"cpp-loop-{k}"
        run = subprocess.run([os.environ["GAME_LOOP"], "--server", proxy.address,
                              "--scenario-file", str(town), "--ticks", "5", "--world-id", world]
                             + ([mode] if mode else []), capture_output=True, text=True,
                             timeout=120)
        assert run.returncode == 0, run.stderr
        assert f"world {world} on cpu" in run.stdout
        assert "5 ticks: latency" in run.stdout


def test_a_dead_replicas_worlds_fail_clearly_and_move_bit_for_bit(cluster):
    replicas, alone, proxy = cluster
    homes = [worlds_on(r) for r in replicas]
    victim = max(range(3), key=lambda k: len(homes[k]))
    print(f"worlds per replica: {[len(h) for h in homes]}; killing replica {victim}")
    moved = sorted(homes[victim])
    assert moved, "the first test left no worlds on any replica"
    # Its worlds exported while it lives (the drain of docs/OPERATIONS.md).
    with throng.Client(replicas[victim].address, timeout=30) as c:
        exports = {w: c.export_world(w).SerializeToString() for w in moved}
    dt = world_scene(0).dt
    others = sorted(set().union(*(homes[k] for k in range(3) if k != victim)))

    # Mid-run: four clients keep stepping the other replicas' worlds while it dies.
    stop = threading.Event()
    ticks = [0] * THREADS

    def keep_stepping(k):
        with throng.Client(proxy.address, timeout=10) as c:
            while not stop.is_set():
                c.advance(others[k], 1, dt)  # any error fails the test through result()
                ticks[k] += 1

    with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
        running = [pool.submit(keep_stepping, k) for k in range(THREADS)]
        time.sleep(0.5)
        os.kill(replicas[victim].proc.pid, signal.SIGKILL)
        replicas[victim].proc.wait()
        at_kill = list(ticks)
        with throng.Client(proxy.address, timeout=5) as c:
            start = time.monotonic()
            with pytest.raises((throng.NotFound, throng.Unavailable)):
                c.advance(moved[0], 1, dt)
            assert time.monotonic() - start < 5
        time.sleep(0.5)
        stop.set()
        for f in running:
            f.result()
    assert all(0 < b < a for a, b in zip(ticks, at_kill)), (at_kill, ticks)

    with throng.Client(proxy.address, timeout=5) as c:
        # The dead replica's worlds, imported through the proxy, land where their calls go
        # now, and continue as the worlds that never moved.
        for w in moved:
            assert c.import_world(exports[w]).world_id == w
    with throng.Client(proxy.address, timeout=30) as c, \
            throng.Client(alone.address, timeout=30) as ref:
        for w in moved:
            for _ in range(5):
                a, _ = c.advance(w, 1, dt)
                b, _ = ref.advance(w, 1, dt)
                for k in ("vx", "vy", "x", "y"):
                    assert np.array_equal(a.agents[k], b.agents[k]), (w, k)
