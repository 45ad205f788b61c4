"""The Python client against a real throngd: answers equal the engine's in process (the
scenario tool runs the World on the same snapshots), Step, Solve and StreamSteps agree,
and failures are typed exceptions carrying the server's message."""

import json
import queue
import subprocess

import numpy as np
import pytest
from google.protobuf import json_format

import throng
from throng import columns, pb
from throng.cli import run_scenario

AGENT_RESULTS = ("vx", "vy", "status", "flags", "x", "y")
VEHICLE_RESULTS = ("steering", "throttle", "brake", "target_speed", "cte", "progress",
                   "clear_distance", "target_x", "target_y", "x", "y", "yaw", "speed")
TICKS = 6


@pytest.fixture(scope="module")
def town_with_engine(scenario_tool, tmp_path_factory):
    """A small town (pedestrians and vehicles) and the engine's answers for TICKS ticks."""
    path = tmp_path_factory.mktemp("scenario") / "town.json"
    subprocess.run([scenario_tool, "town", "--size", "150", "--seed", "4", "--proto",
                    "--engine-ticks", str(TICKS), "-o", str(path)], check=True)
    with open(path) as f:
        doc = json.load(f)
    engine = [json_format.ParseDict(r, pb.StepResponse()) for r in doc["engine"]]
    return throng.scenario.scenario_from_dict(doc), engine


def _step_loop(client, world, scenario, ticks, use_stream=False):
    """What `python3 -m throng run` does: integrate server-side, feed the answer back."""
    agents, vehicles = dict(scenario.agents), dict(scenario.vehicles)
    results = []

    def snapshot(i):
        return dict(tick=scenario.tick + i, dt=scenario.dt, agents=agents, vehicles=vehicles,
                    integrate=True, debug=True)

    def feed(r):
        results.append(r)
        agents.update({k: r.agents[k] for k in ("x", "y", "z", "vx", "vy", "vz")})
        vehicles.update({k: r.vehicles[k] for k in ("x", "y", "z", "yaw", "speed")})
        vehicles.pop("progress_hint", None)

    if use_stream:
        # A game loop over one stream: gRPC pulls requests on its own thread, so the
        # generator may block until the previous tick's answer has been fed back.
        answered = queue.Queue()

        def requests():
            for i in range(ticks):
                yield snapshot(i)
                answered.get(timeout=60)

        for r in client.stream(world, requests()):
            feed(r)
            answered.put(True)
    else:
        for i in range(ticks):
            feed(client.step(world, **snapshot(i)))
    return results


def _assert_equal(result, engine):
    want_a, want_v = columns.decode(engine.agents), columns.decode(engine.vehicles)
    for k in AGENT_RESULTS:
        np.testing.assert_array_equal(result.agents[k], want_a[k], err_msg=f"agents.{k}")
    for k in VEHICLE_RESULTS:
        np.testing.assert_array_equal(result.vehicles[k], want_v[k], err_msg=f"vehicles.{k}")
    for k in ("ok", "safe_stop", "emergency", "agent_overlaps", "vehicle_overlaps",
              "agents_in_obstacles"):
        assert getattr(result.stats, k) == getattr(engine.stats, k), k


@pytest.mark.parametrize("use_stream", [False, True], ids=["step", "stream"])
def test_answers_equal_the_engine_in_process(client, town_with_engine, use_stream):
    scenario, engine = town_with_engine
    assert len(scenario.vehicles["id"]) > 0 and len(scenario.agents["id"]) == 150
    world = client.create_world(scenario, backend="cpu")
    assert world.backend == "cpu"
    results = _step_loop(client, world.world_id, scenario, TICKS, use_stream)
    assert [r.tick for r in results] == [scenario.tick + i for i in range(TICKS)]
    for result, want in zip(results, engine):
        _assert_equal(result, want)
    client.delete_world(world.world_id)


def test_solve_equals_a_first_step(client, town_with_engine):
    scenario, _ = town_with_engine
    world = client.create_world(scenario.config).world_id
    a = client.step(world, scenario.tick, scenario.dt, scenario.agents, scenario.vehicles)
    b = client.solve(scenario.config, scenario.tick, scenario.dt, scenario.agents,
                     scenario.vehicles)
    for k in a.agents:
        np.testing.assert_array_equal(a.agents[k], b.agents[k], err_msg=k)
    for k in a.vehicles:
        np.testing.assert_array_equal(a.vehicles[k], b.vehicles[k], err_msg=k)
    client.delete_world(world)


def test_config_from_a_dict(client):
    cfg = {"name": "two walkers", "orca": {"time_horizon": 5}, "defaults": {"agent_radius": 0.4}}
    world = client.create_world(cfg).world_id
    agents = {"id": np.array([1, 2]), "x": np.array([-2.0, 2.0]), "y": np.zeros(2),
              "goal_x": np.array([2.0, -2.0]), "goal_y": np.zeros(2)}
    r = client.step(world, 0, 0.1, agents=agents)
    assert r.agents["vx"].dtype == np.float32 and r.agents["vx"].shape == (2,)
    assert r.agents["vx"][0] > 0 > r.agents["vx"][1]  # each heads for its goal
    info = client.get_world(world, include_state=True)
    assert info.info.name == "two walkers" and info.config.defaults.agent_radius == pytest.approx(0.4)
    state = columns.decode(info.agents)
    np.testing.assert_array_equal(state["id"], [1, 2])
    assert world in [w.world_id for w in client.list_worlds()]
    client.delete_world(world)


def test_errors_are_typed_and_carry_the_servers_message(client):
    world = client.create_world({"name": "errors"}).world_id
    agents = {"id": np.arange(3), "x": np.arange(3.0), "y": np.zeros(3)}
    client.step(world, 5, 0.1, agents=agents)
    with pytest.raises(throng.InvalidArgument) as e:
        client.step(world, 6, 0.1, agents=dict(agents, radius=np.array([0.3, -1.0, 0.3])))
    assert "agents.radius[1]" in e.value.message and e.value.code.name == "INVALID_ARGUMENT"
    assert isinstance(e.value, throng.ThrongError)
    with pytest.raises(throng.InvalidArgument, match="x"):  # column length mismatch
        client.step(world, 6, 0.1, agents=dict(agents, x=np.zeros(2)))
    with pytest.raises(throng.InvalidArgument, match="tick"):  # tick going backwards
        client.step(world, 4, 0.1, agents=agents)
    assert client.get_world(world).info.last_tick == 5  # rejected requests changed nothing
    with pytest.raises(throng.NotFound):
        client.step("no-such-world", 1, 0.1, agents=agents)
    with pytest.raises(throng.FailedPrecondition):
        client.advance(client.create_world({}).world_id, 2, 0.1)  # no state yet
    # A bad tick on a stream ends it with its status; the ticks before it stand.
    ticks = [dict(tick=7, dt=0.1, agents=agents), dict(tick=8, dt=-1.0, agents=agents)]
    got = []
    with pytest.raises(throng.InvalidArgument, match="dt"):
        for r in client.stream(world, ticks):
            got.append(r.tick)
    assert got == [7] and client.get_world(world).info.last_tick == 7
    client.delete_world(world)


def test_advance_runs_server_side(client, town_with_engine):
    scenario, _ = town_with_engine
    world = client.create_world(scenario).world_id
    client.step(world, scenario.tick, scenario.dt, scenario.agents, scenario.vehicles,
                integrate=True)
    last, totals = client.advance(world, 3, scenario.dt)
    assert totals.ticks == 4 and last.tick == scenario.tick + 3
    assert last.agents["x"].shape == scenario.agents["x"].shape
    client.delete_world(world)


def test_a_world_exported_and_imported_continues_alike(client, town_with_engine):
    scenario, _ = town_with_engine
    world = client.create_world(scenario).world_id
    client.step(world, scenario.tick, scenario.dt, scenario.agents, scenario.vehicles,
                integrate=True)
    client.advance(world, 5, scenario.dt)
    stored = client.export_world(world).SerializeToString()  # as a caller would keep it
    copy = client.import_world(stored, world_id=f"{world}-copy")
    assert copy.world_id == f"{world}-copy" and copy.last_tick == scenario.tick + 5
    a, _ = client.advance(world, 3, scenario.dt)
    b, totals = client.advance(copy.world_id, 3, scenario.dt)
    for name in ("vx", "vy", "x", "y"):
        assert np.array_equal(a.agents[name], b.agents[name]), name
    assert np.array_equal(a.vehicles["steering"], b.vehicles["steering"])
    assert totals.ticks == 9
    with pytest.raises(throng.AlreadyExists, match="taken"):
        client.import_world(stored)
    client.delete_world(world)
    client.delete_world(copy.world_id)


def test_a_navigation_field_comes_back_as_a_grid(client):
    box = lambda x0, y0, x1, y1: [{"x": x0, "y": y0}, {"x": x1, "y": y0}, {"x": x1, "y": y1},
                                  {"x": x0, "y": y1}]
    world = client.create_world({
        "name": "wall", "obstacles": [{"vertices": box(-1, -6, 1, 6)}],
        "navigation_targets": [{"id": 4, "shape": [{"x": -8, "y": 0}]}]}).world_id
    field = client.navigation_field(world, 4)
    d, (x0, y0), cell = field["distance"], field["origin"], field["cell"]
    assert field["target_id"] == 4 and cell == 0.25 and d.ndim == 2

    def at(x, y):
        return d[int((y - y0) / cell), int((x - x0) / cell)]

    assert np.isinf(at(0, 0))           # inside the wall
    assert at(-8, 0.5) < 1              # beside the target
    assert at(3, 0) > 14                # behind the wall (11 m straight): around it
    with pytest.raises(throng.NotFound, match="its targets: 4"):
        client.navigation_field(world, 5)
    client.delete_world(world)


def test_a_field_larger_than_grpcs_default_message_comes_back(client):
    # 300 m x 300 m at 0.25 m: 1.5 million cells, 6 MB of distances, over the 4 MB a
    # gRPC channel takes by default; the client asks for throngd's 256 MB.
    world = client.create_world({
        "name": "wide", "obstacles": [{"vertices": [{"x": 0, "y": 0}, {"x": 1, "y": 0},
                                                    {"x": 1, "y": 1}]}],
        "navigation_targets": [{"id": 1, "shape": [{"x": 300, "y": 300}]}]}).world_id
    field = client.navigation_field(world, 1)
    assert field["distance"].size > 1_500_000
    assert field["distance"][0, 0] > 400  # the far corner: about 430 m
    client.delete_world(world)


def test_token_is_sent_and_checked(throngd_path):
    from conftest import Server
    server = Server(throngd_path, "--token", "s3cret")
    try:
        with throng.Client(server.address) as c:
            with pytest.raises(throng.Unauthenticated):
                c.list_worlds()
        with throng.Client(server.address, token="s3cret") as c:
            assert c.list_worlds() == []
    finally:
        server.stop()


def test_run_scenario_records_every_tick(client, town_with_engine):
    scenario, engine = town_with_engine
    run = run_scenario(client, scenario, TICKS, backend="cpu")
    n, m = len(scenario.agents["id"]), len(scenario.vehicles["id"])
    assert run["agent_x"].shape == (TICKS, n) and run["vehicle_yaw"].shape == (TICKS, m)
    np.testing.assert_array_equal(run["agent_x"][-1], columns.decode(engine[-1].agents)["x"])
    assert str(run["backend"]) == "cpu" and run["latency_s"].shape == (TICKS,)
    assert all(w.name != "town-150" for w in client.list_worlds())  # deleted after the run


def test_tls_with_a_root_certificate(throngd_path, tmp_path):
    from conftest import Server
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    server = Server(throngd_path, "--tls-cert", str(cert), "--tls-key", str(key))
    try:
        with throng.Client(server.address, tls_ca=str(cert), timeout=30) as c:
            assert c.list_worlds() == []
        with throng.Client(server.address, timeout=5) as c:  # plaintext to a TLS port
            with pytest.raises(throng.ThrongError):
                c.list_worlds()
    finally:
        server.stop()
