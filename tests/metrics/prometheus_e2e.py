#!/usr/bin/python3
"""End to end: the real Prometheus server scrapes a real throngd that runs scenes, and
what Prometheus stored must equal what the engine reported in its responses.

Starts throngd (--throngd) and /usr/bin/prometheus on loopback (scraping every second
with a generated config), drives throngd over gRPC with stubs generated here from
proto/ (protoc + grpc_python_plugin, so no dependency on clients/python), then queries
Prometheus's HTTP API:
- solver outcomes by case, oscillating and stalled agent-ticks, collisions: exactly the
  sums of the Step responses' TickStats, plus the Advance world's WorldTotals;
- tick latency: one observation per tick per stage, and the histogram's sum equal to
  the Step responses' stage times;
- RPCs by method and code, and the population gauges;
- every query of the Grafana dashboard evaluates, and its metric names are in the live
  /metrics, which also passes `promtool check metrics`.
Run by CTest (tests/metrics/CMakeLists.txt) with the system Python.
"""
import argparse
import json
import math
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CASES = ("ok", "safe_stop", "emergency")
STAGES = ("validate", "upload", "grid", "preferred", "candidates", "orca", "vehicles",
          "integrate", "stats", "download", "total")
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read().decode()


def generate_stubs(out, protoc, plugin):
    """throng/v1/simulation_pb2{,_grpc}.py under `out`, importable as a regular package
    (with __init__.py, so no other `throng` on sys.path can shadow it)."""
    os.makedirs(out)
    subprocess.run([protoc, f"-I{ROOT}/proto", f"--python_out={out}", f"--grpc_python_out={out}",
                    f"--plugin=protoc-gen-grpc_python={plugin}", "throng/v1/simulation.proto"],
                   check=True)
    for pkg in ("throng", "throng/v1"):
        open(os.path.join(out, pkg, "__init__.py"), "a").close()
    sys.path.insert(0, out)


class Process:
    """A child process, stopped (SIGTERM, then SIGKILL) when the block ends."""

    def __init__(self, args, log, stdout=subprocess.DEVNULL):
        self.log = open(log, "w")
        self.proc = subprocess.Popen(args, stdout=stdout, stderr=self.log, text=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


class Prometheus:
    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"

    def query(self, expr):
        """An instant query's result vector: [(labels, value)]."""
        url = f"{self.base}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
        body = json.loads(http_get(url))
        if body.get("status") != "success":
            raise RuntimeError(f"{expr}: {body}")
        result = body["data"]["result"]
        if body["data"]["resultType"] == "scalar":
            return [({}, float(result[1]))]
        return [(r["metric"], float(r["value"][1])) for r in result]

    def value(self, expr):
        result = self.query(expr)
        return result[0][1] if result else None

    def by(self, expr, label):
        return {labels.get(label, ""): v for labels, v in self.query(expr)}

    def wait_for(self, expr, expected, timeout=60):
        """Waits until `expr` equals `expected`: Prometheus has scraped what was sent."""
        end = time.time() + timeout
        while time.time() < end:
            if self.value(expr) == expected:
                return True
            time.sleep(0.25)
        print(f"timed out: {expr} is {self.value(expr)}, expected {expected}")
        return False


class Expected:
    """What the engine reported, summed."""

    def __init__(self):
        self.ticks = 0
        self.cases = dict.fromkeys(CASES, 0)
        self.oscillating = self.stalled = self.stall_episodes = self.jam_steps = 0
        self.collisions = {"agent_agent": 0, "agent_vehicle": 0, "agent_obstacle": 0}
        self.stage_seconds = dict.fromkeys(STAGES, 0.0)
        self.rpcs = {}

    def add_tick(self, s):
        self.ticks += 1
        for case in CASES:
            self.cases[case] += getattr(s, case)
        self.oscillating += s.oscillating
        self.stalled += s.stalled
        self.stall_episodes += s.stall_episodes
        self.jam_steps += s.jam_steps
        self.collisions["agent_agent"] += s.agent_overlaps
        self.collisions["agent_vehicle"] += s.vehicle_overlaps
        self.collisions["agent_obstacle"] += s.agents_in_obstacles
        for stage in STAGES:
            self.stage_seconds[stage] += getattr(s.stage_seconds, stage)

    def add_totals(self, t):
        self.ticks += t.ticks
        for case in CASES:
            self.cases[case] += getattr(t, case)
        self.oscillating += t.oscillating
        self.stalled += t.stalled
        self.stall_episodes += t.stall_episodes
        self.jam_steps += t.jam_steps
        self.collisions["agent_agent"] += t.agent_overlaps
        self.collisions["agent_vehicle"] += t.vehicle_overlaps
        self.collisions["agent_obstacle"] += t.agents_in_obstacles

    def rpc(self, method, code):
        self.rpcs[(method, code)] = self.rpcs.get((method, code), 0) + 1


def call(expected, method, fn, request):
    """Calls `fn`, counting the RPC's outcome as the server will."""
    import grpc
    try:
        response = fn(request, timeout=60)
        expected.rpc(method, "OK")
        return response
    except grpc.RpcError as e:
        expected.rpc(method, e.code().name)
        return None


def fill_agents(batch, agents):
    for column in ("id", "x", "y", "vx", "vy", "radius", "max_speed", "pref_vx", "pref_vy",
                   "goal_x", "goal_y", "flags"):
        values = [a[column] for a in agents if column in a]
        if values:
            assert len(values) == len(agents), column
            getattr(batch, column).extend(values)


def swing_and_squeeze(tick):
    """Agents of two scenes far apart, as they stand at `tick`:
    - a walker whose scripted blocker jumps from one side of its path to the other every
      two ticks, so its dodge changes sides: oscillation;
    - a slow agent (0.05 m/s) that two scripted agents run at from both sides, 0.1 m
      away at 1.5 m/s: contact within one tick whatever it does, and standing still is
      unsafe: an emergency every tick."""
    blocker_y = 0.5 if (tick // 2) % 2 == 0 else -0.5
    coop, scripted = 0, 1  # SnapshotAgentFlag bits
    return [
        dict(id=1, x=0.0, y=0.0, vx=1.4, vy=0.0, radius=0.3, max_speed=1.4, pref_vx=1.4, pref_vy=0.0, flags=coop),
        dict(id=2, x=0.9, y=blocker_y, vx=0.0, vy=0.0, radius=0.3, max_speed=1.4, pref_vx=0.0, pref_vy=0.0, flags=scripted),
        dict(id=3, x=100.0, y=0.0, vx=0.0, vy=0.0, radius=0.3, max_speed=0.05, pref_vx=0.0, pref_vy=0.0, flags=coop),
        dict(id=4, x=99.3, y=0.0, vx=1.5, vy=0.0, radius=0.3, max_speed=1.5, pref_vx=1.5, pref_vy=0.0, flags=scripted),
        dict(id=5, x=100.7, y=0.0, vx=-1.5, vy=0.0, radius=0.3, max_speed=1.5, pref_vx=-1.5, pref_vy=0.0, flags=scripted),
        # Two scripted agents on top of each other: one agent_agent collision per tick.
        dict(id=6, x=200.0, y=0.0, vx=0.0, vy=0.0, radius=0.3, max_speed=1.4, pref_vx=0.0, pref_vy=0.0, flags=scripted),
        dict(id=7, x=200.3, y=0.0, vx=0.0, vy=0.0, radius=0.3, max_speed=1.4, pref_vx=0.0, pref_vy=0.0, flags=scripted),
        # A scripted agent inside PILLAR: one agent_obstacle collision per tick.
        dict(id=8, x=300.0, y=0.0, vx=0.0, vy=0.0, radius=0.3, max_speed=1.4, pref_vx=0.0, pref_vy=0.0, flags=scripted),
    ]


PILLAR = [(299.0, -1.0), (301.0, -1.0), (301.0, 1.0), (299.0, 1.0)]  # a 2 m square


def circle(n, radius):
    """n agents on a circle, each walking to the antipode: crowding in the middle."""
    agents = []
    for i in range(n):
        a = 2 * math.pi * i / n
        agents.append(dict(id=100 + i, x=radius * math.cos(a), y=radius * math.sin(a),
                           goal_x=-radius * math.cos(a), goal_y=-radius * math.sin(a)))
    return agents


def drive_advance_world(pb, stub, expected, backend, ticks):
    """A circle crowd: one integrated Step, then Advance; totals from the response."""
    config = pb.WorldConfig(name="e2e-circle", backend="BACKEND_" + backend.upper())
    info = call(expected, "CreateWorld", stub.CreateWorld, pb.CreateWorldRequest(config=config))
    step = pb.StepRequest(world_id=info.world_id, tick=1, dt=0.1)
    step.options.integrate = True
    # Packed shoulder to shoulder (0.63 m apart, 0.6 m wide): the middle jams, so besides
    # solver outcomes the stall counter has something to count.
    fill_agents(step.agents, circle(60, 6.0))
    call(expected, "Step", stub.Step, step)
    advanced = call(expected, "Advance", stub.Advance,
                    pb.AdvanceRequest(world_id=info.world_id, ticks=ticks, dt=0.1))
    expected.add_totals(advanced.totals)  # every tick of this world, the Step's included
    return info.world_id, advanced.totals


def drive_step_world(pb, stub, expected, backend, ticks):
    """The swing-and-squeeze scenes, Step by Step; each response's stats are summed."""
    config = pb.WorldConfig(name="e2e-swing", backend="BACKEND_" + backend.upper())
    config.obstacles.add().vertices.extend(pb.Point3(x=x, y=y) for x, y in PILLAR)
    info = call(expected, "CreateWorld", stub.CreateWorld, pb.CreateWorldRequest(config=config))
    for tick in range(1, ticks + 1):
        step = pb.StepRequest(world_id=info.world_id, tick=tick, dt=0.1)
        fill_agents(step.agents, swing_and_squeeze(tick))
        response = call(expected, "Step", stub.Step, step)
        expected.add_tick(response.stats)
    # Mistakes a caller makes, counted by code: an unknown world, a bad radius.
    call(expected, "Step", stub.Step, pb.StepRequest(world_id="no-such-world", tick=1, dt=0.1))
    bad = pb.StepRequest(world_id=info.world_id, tick=ticks + 1, dt=0.1)
    fill_agents(bad.agents, swing_and_squeeze(ticks + 1))
    bad.agents.radius[0] = -1.0
    call(expected, "Step", stub.Step, bad)
    return info.world_id


def dashboard_queries():
    """Every expression of the dashboard, with Grafana's variables filled in."""
    with open(os.path.join(ROOT, "deploy", "grafana", "dashboards", "throng.json")) as f:
        dashboard = json.load(f)
    panels, out = list(dashboard["panels"]), []
    while panels:
        p = panels.pop()
        panels.extend(p.get("panels", []))
        for t in p.get("targets", []):
            expr = t["expr"].replace("$__rate_interval", "1m").replace("$instance", ".*")
            out.append((p["title"], expr.replace("$backend", ".*")))
    return out


def check_scenes(expected, circle_totals, steps):
    """The scenes do what they were built for: exactly one emergency and one collision of
    each built kind per Step tick, and some oscillation."""
    print(f"engine reported: {expected.ticks} ticks, outcomes {expected.cases}, "
          f"oscillating {expected.oscillating}, stalled {expected.stalled}, "
          f"collisions {expected.collisions}")
    check(expected.cases["emergency"] - circle_totals.emergency == steps,
          f"one emergency per Step tick ({steps})")
    check(expected.collisions["agent_agent"] - circle_totals.agent_overlaps == steps,
          "one agent_agent collision per Step tick")
    check(expected.collisions["agent_obstacle"] - circle_totals.agents_in_obstacles == steps,
          "one agent_obstacle collision per Step tick")
    check(expected.oscillating > 0, "the swinging blocker makes its walker oscillate")


def check_engine_series(prom, expected, backend, sums_before):
    """Counters equal the engine's reports; one latency observation per tick and stage,
    and the latency sums since `sums_before` equal the Step responses' stage times."""
    check(prom.value("sum(throng_ticks_total)") == expected.ticks, "ticks")
    backends = prom.by("sum by (backend) (throng_ticks_total)", "backend")
    check(backends.get(backend) == expected.ticks, f"ticks labelled backend={backend}")
    cases = prom.by("sum by (case) (throng_solver_outcomes_total)", "case")
    for case in CASES:
        check(cases.get(case) == expected.cases[case],
              f"solver outcomes {case}: {cases.get(case)} == {expected.cases[case]}")
    osc = prom.value("sum(throng_oscillating_agent_ticks_total)")
    check(osc == expected.oscillating, f"oscillating agent-ticks: {osc} == {expected.oscillating}")
    stalled = prom.value("sum(throng_stalled_agent_ticks_total)")
    check(stalled == expected.stalled, f"stalled agent-ticks: {stalled} == {expected.stalled}")
    episodes = prom.value("sum(throng_stall_episodes_total)")
    check(episodes == expected.stall_episodes,
          f"stall episodes: {episodes} == {expected.stall_episodes}")
    jam = prom.value("sum(throng_jam_steps_total)")
    check(jam == expected.jam_steps, f"jam steps: {jam} == {expected.jam_steps}")
    kinds = prom.by("sum by (kind) (throng_collisions_total)", "kind")
    for kind, n in expected.collisions.items():
        check(kinds.get(kind) == n, f"collisions {kind}: {kinds.get(kind)} == {n}")
    for stage in STAGES:
        count = prom.value(f'sum(throng_tick_duration_seconds_count{{stage="{stage}"}})')
        check(count == expected.ticks, f"tick duration {stage}: {count} observations")
        total = prom.value(f'sum(throng_tick_duration_seconds_sum{{stage="{stage}"}})')
        got, want = total - sums_before[stage], expected.stage_seconds[stage]
        check(abs(got - want) <= 1e-9 + 1e-6 * want,
              f"tick duration {stage}: {got:.6g} s == {want:.6g} s reported")
    p99 = prom.value("histogram_quantile(0.99, sum by (le) "
                     '(rate(throng_tick_duration_seconds_bucket{stage="total"}[1m])))')
    check(p99 is not None and p99 > 0, f"tick latency p99 {p99} s")


def check_service_series(prom, expected, agents):
    got = {(labels["method"], labels["code"]): v
           for labels, v in prom.query("sum by (method, code) (throng_rpcs_total) > 0")}
    check(got == {k: float(v) for k, v in expected.rpcs.items()},
          f"RPCs by method and code: {sorted(got.items())}")
    count = prom.value('sum(throng_rpc_duration_seconds_count{method="Step"})')
    want = sum(v for (method, _), v in expected.rpcs.items() if method == "Step")
    check(count == want, f"Step latency observations: {count} == {want}")
    check(prom.value("throng_worlds") == 2, "two worlds")
    check(prom.value("throng_worlds_limit") == 8, "--max-worlds")
    check(prom.value("throng_agents") == agents, f"{agents} agents over both worlds")


def check_dashboard_live(prom, metrics_url, promtool):
    """Every dashboard query evaluates against real data; the live /metrics passes
    promtool's lint and holds every metric name the dashboard uses."""
    for title, expr in dashboard_queries():
        try:
            prom.query(expr)
            ok = True
        except Exception as e:  # noqa: BLE001 - report every failing query
            ok, title = False, f"{title}: {e}"
        check(ok, f"dashboard query evaluates: {title}")
    lint = subprocess.run([promtool, "check", "metrics"], input=http_get(metrics_url),
                          capture_output=True, text=True)
    check(lint.returncode == 0, "promtool check metrics on /metrics " + lint.stdout + lint.stderr)
    names = subprocess.run([sys.executable, os.path.join(HERE, "check_dashboard.py"), "--dashboard",
                            os.path.join(ROOT, "deploy", "grafana", "dashboards", "throng.json"),
                            "--scrape-url", metrics_url], capture_output=True, text=True)
    check(names.returncode == 0, "dashboard names in the live /metrics: " + names.stdout.strip())


def start_prometheus(args, tmp, metrics_port):
    """The real Prometheus on a free loopback port, scraping throngd every second."""
    with open(os.path.join(tmp, "prometheus.yml"), "w") as f:
        f.write("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                "scrape_configs:\n  - job_name: throngd\n    static_configs:\n"
                f"      - targets: ['127.0.0.1:{metrics_port}']\n")
    port = free_port()
    process = Process([args.prometheus, f"--config.file={tmp}/prometheus.yml",
                       f"--storage.tsdb.path={tmp}/data", f"--web.listen-address=127.0.0.1:{port}"],
                      os.path.join(tmp, "prometheus.log"))
    prom = Prometheus(port)
    end = time.time() + 60
    while time.time() < end:
        try:
            http_get(prom.base + "/-/ready")
            break
        except OSError:
            time.sleep(0.2)
    return process, prom


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--throngd", required=True)
    ap.add_argument("--prometheus", default="/usr/bin/prometheus")
    ap.add_argument("--promtool", default="/usr/bin/promtool")
    ap.add_argument("--protoc", default=shutil.which("protoc"))
    ap.add_argument("--grpc-python-plugin", default=shutil.which("grpc_python_plugin"))
    ap.add_argument("--backend", default="cpu", choices=["cpu", "cuda", "reference"])
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (logs)")
    args = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="throng-prom-e2e-")
    generate_stubs(os.path.join(tmp, "stubs"), args.protoc, args.grpc_python_plugin)
    import grpc
    from throng.v1 import simulation_pb2 as pb
    from throng.v1 import simulation_pb2_grpc as pb_grpc

    metrics_port = free_port()
    metrics_url = f"http://127.0.0.1:{metrics_port}/metrics"
    throngd_args = [args.throngd, "--listen", "127.0.0.1:0", "--metrics",
                    f"127.0.0.1:{metrics_port}", "--backend", args.backend, "--max-worlds", "8"]
    with Process(throngd_args, os.path.join(tmp, "throngd.log"), subprocess.PIPE) as throngd:
        line = throngd.proc.stdout.readline()  # "throngd listening on 127.0.0.1:PORT"
        match = re.search(r"listening on [^:]+:(\d+)", line)
        if not match:
            print("throngd did not start:", line, open(os.path.join(tmp, "throngd.log")).read())
            return 1
        process, prom = start_prometheus(args, tmp, metrics_port)
        with process:
            check(prom.wait_for('up{job="throngd"}', 1.0), "Prometheus scrapes throngd")
            channel = grpc.insecure_channel(f"127.0.0.1:{match.group(1)}")
            stub = pb_grpc.SimulationStub(channel)
            expected = Expected()
            # Wait on the RPC counter: throngd counts an RPC after recording its ticks, so
            # a scrape that has the RPC has every series of its ticks.
            scraped = lambda: prom.wait_for("sum(throng_rpcs_total)",
                                            float(sum(expected.rpcs.values())))

            # Phase 1: Advance. Its intermediate ticks' stage times are in no response, so
            # the latency sums are compared on phase 2 alone.
            circle_id, circle_totals = drive_advance_world(pb, stub, expected, args.backend, 60)
            check(scraped(), f"phase 1 scraped: {expected.ticks} ticks")
            sums_before = {s: prom.value(f'sum(throng_tick_duration_seconds_sum{{stage="{s}"}})')
                           for s in STAGES}
            advance_ticks = expected.ticks

            # Phase 2: Step by Step.
            swing_id = drive_step_world(pb, stub, expected, args.backend, 40)
            check(scraped(), f"phase 2 scraped: {expected.ticks} ticks")

            check_scenes(expected, circle_totals, expected.ticks - advance_ticks)
            check_engine_series(prom, expected, args.backend, sums_before)
            check_service_series(prom, expected, agents=60 + len(swing_and_squeeze(0)))
            check_dashboard_live(prom, metrics_url, args.promtool)
            for world in (circle_id, swing_id):
                call(expected, "DeleteWorld", stub.DeleteWorld, pb.DeleteWorldRequest(world_id=world))
            channel.close()

    if failures or args.keep:
        print("logs kept in", tmp)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(failures)} failed" if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
