"""python3 -m throng run|render: run a scenario against throngd and record it; render a
recorded run (docs/CLIENTS.md)."""

import argparse
import json
import os
import sys
import time

import numpy as np

from throng.client import Client, ThrongError
from throng.scenario import load_scenario, make_scenario
from throng.v1 import simulation_pb2 as pb

# TickStats fields recorded per tick (and summed in the summary).
STAT_FIELDS = ("ok", "safe_stop", "emergency", "jam_steps", "reroutes", "oscillating", "stalled",
               "stall_episodes",
               "longest_stall_ticks", "stopped",
               "agent_overlaps", "vehicle_overlaps", "agents_in_obstacles", "vehicles_braking",
               "forward_blocked", "forward_in_obstacles")
COLLISION_FIELDS = ("agent_overlaps", "vehicle_overlaps", "agents_in_obstacles",
                    "forward_in_obstacles")


def _ground(config):
    """The two ground-plane columns, and whether the view flips vertically so that the
    picture is the scene seen from above (frames where the second ground axis points down
    the screen: Y-up right-handed, Z-up left-handed)."""
    y_up = config.up_axis == pb.UP_AXIS_Y
    left = config.handedness == pb.HANDEDNESS_LEFT
    return ("x", "z" if y_up else "y"), y_up != left


def _up(config):
    """The column that is height in the caller's frame."""
    return "y" if config.up_axis == pb.UP_AXIS_Y else "z"

_RECORDED_FIELDS = 16


def _record_fields(client, world_id, config, flip):
    """Every navigation target's field (Client.navigation_field) in the recording's ground
    axes: "field_ids", and for the k-th target "field_distance_k" (rows x columns, rows along
    the second ground axis upward), "field_origin_k" and "field_cell_k". The engine's grid
    lies in its internal ground plane, whose second axis is the caller's negated in the
    frames the view flips (docs/NAVIGATION.md, "Fetching a field to draw it"); those are
    mirrored here. At most the first _RECORDED_FIELDS targets: a world of hundreds of
    regional targets (blocks_navigate at 10,000 agents has 400) would fill the recording
    with fields nobody draws at once."""
    targets = list(config.navigation_targets)[:_RECORDED_FIELDS]
    out = {"field_ids": np.array([t.id for t in targets], np.uint32)}
    for k, target in enumerate(targets):
        field = client.navigation_field(world_id, target.id)
        distance = np.asarray(field["distance"], np.float32)
        x0, y0 = field["origin"]
        if flip:
            distance = distance[::-1]
            y0 = -(y0 + distance.shape[0] * field["cell"])
        out[f"field_distance_{k}"] = distance
        out[f"field_origin_{k}"] = np.array([x0, y0], np.float32)
        out[f"field_cell_{k}"] = np.array(field["cell"], np.float32)
    return out


def _flatten(polylines, ground):
    axes = ["xyz".index(a) for a in ground]
    pts = [np.array([[p.x, p.y, p.z] for p in line], dtype=np.float32).reshape(-1, 3)[:, axes]
           for line in polylines]
    offsets = np.cumsum([0] + [len(p) for p in pts]).astype(np.int64)
    return (np.vstack(pts) if pts else np.zeros((0, 2), np.float32)), offsets


def run_scenario(client, scenario, ticks, backend=None, log=None):
    """Creates a world for `scenario`, steps it `ticks` times with server-side integration
    (each tick's snapshot is the previous tick's answer) and returns the recording as a
    dict of arrays (the .npz that `render` reads). Deletes the world afterwards."""
    config = scenario.config
    (gu, gv), flip = _ground(config)
    info = client.create_world(config, name=f"{scenario.name}-{scenario.size}", backend=backend)
    up = _up(config)
    agents = dict(scenario.agents)
    vehicles = dict(scenario.vehicles)
    forward = dict(scenario.forward)
    n, m = len(agents.get("id", ())), len(vehicles.get("id", ()))
    k = len(forward.get("id", ()))
    rec = {key: [] for key in ("agent_x", "agent_y", "agent_status", "agent_flags", "vehicle_x",
                               "vehicle_y", "vehicle_yaw", "vehicle_speed", "vehicle_target_x",
                               "vehicle_target_y", "forward_x", "forward_y", "forward_up",
                               "forward_hx", "forward_hy", "forward_boxed_in", "tick",
                               "latency_s", "server_s") + STAT_FIELDS}
    backend_name = info.backend
    try:
        fields = _record_fields(client, info.world_id, config, flip)
        for i in range(ticks):
            tick = scenario.tick + i
            start = time.perf_counter()
            r = client.step(info.world_id, tick, scenario.dt, agents, vehicles,
                            integrate=True, debug=True, forward=forward if k else None)
            rec["latency_s"].append(time.perf_counter() - start)
            # The answer is the next snapshot: positions and velocities (agents), pose and
            # speed (vehicles; lane progress continues server-side, so no hint after tick 0).
            for key in ("x", "y", "z", "vx", "vy", "vz"):
                if len(r.agents[key]) == n and n:
                    agents[key] = r.agents[key]
            for key in ("x", "y", "z", "yaw", "speed"):
                if len(r.vehicles[key]) == m and m:
                    vehicles[key] = r.vehicles[key]
            vehicles.pop("progress_hint", None)
            for key in ("x", "y", "z", "forward_x", "forward_y", "forward_z"):
                if k and len(r.forward.get(key, ())) == k:
                    forward[key] = r.forward[key]
            zeros = np.zeros(k, np.float32)
            rec["forward_x"].append(forward.get(gu, zeros))
            rec["forward_y"].append(forward.get(gv, zeros))
            rec["forward_up"].append(forward.get(up, zeros))
            rec["forward_hx"].append(forward.get("forward_" + gu, zeros))
            rec["forward_hy"].append(forward.get("forward_" + gv, zeros))
            blocked = r.forward.get("all_blocked", ())
            rec["forward_boxed_in"].append(np.asarray(blocked, np.uint8) if len(blocked) == k
                                          else np.zeros(k, np.uint8))
            rec["agent_x"].append(agents.get(gu, np.zeros(n, np.float32)))
            rec["agent_y"].append(agents.get(gv, np.zeros(n, np.float32)))
            rec["agent_status"].append(r.agents["status"].astype(np.uint8))
            rec["agent_flags"].append(r.agents["flags"].astype(np.uint8))
            rec["vehicle_x"].append(vehicles.get(gu, np.zeros(m, np.float32)))
            rec["vehicle_y"].append(vehicles.get(gv, np.zeros(m, np.float32)))
            rec["vehicle_yaw"].append(vehicles.get("yaw", np.zeros(m, np.float32)))
            rec["vehicle_speed"].append(vehicles.get("speed", np.zeros(m, np.float32)))
            for key, axis in (("vehicle_target_x", gu), ("vehicle_target_y", gv)):
                target = r.vehicles["target_" + axis]
                rec[key].append(target if len(target) == m else np.full(m, np.nan, np.float32))
            rec["tick"].append(tick)
            rec["server_s"].append(r.stats.stage_seconds.total)
            for key in STAT_FIELDS:
                rec[key].append(getattr(r.stats, key))
            backend_name = r.stats.backend or backend_name
            if log and (i + 1) % max(1, ticks // 10) == 0:
                log(f"tick {i + 1}/{ticks}: {1e3 * rec['latency_s'][-1]:.1f} ms")
    finally:
        try:
            client.delete_world(info.world_id)
        except ThrongError:
            pass  # the world is soft state; a server going away takes it along
    out = {k: np.asarray(v) for k, v in rec.items()}
    for key, dtype in (("agent_x", np.float32), ("agent_y", np.float32),
                       ("agent_status", np.uint8), ("agent_flags", np.uint8),
                       ("vehicle_x", np.float32), ("vehicle_y", np.float32),
                       ("vehicle_yaw", np.float32), ("vehicle_speed", np.float32),
                       ("vehicle_target_x", np.float32), ("vehicle_target_y", np.float32),
                       ("forward_x", np.float32), ("forward_y", np.float32),
                       ("forward_up", np.float32), ("forward_hx", np.float32),
                       ("forward_hy", np.float32), ("forward_boxed_in", np.uint8)):
        width = n if key.startswith("agent") else (m if key.startswith("vehicle") else k)
        out[key] = out[key].astype(dtype).reshape(len(rec["tick"]), width)
    out["forward_radius"] = forward.get(
        "radius", np.full(k, config.forward.radius if config.forward.HasField("radius") else 0.5,
                          np.float32))
    out["forward_cone"] = np.array(config.forward.mode == pb.FAN_MODE_CONE)
    # For the side view: each obstacle's ground span and height range (NaN: none), and
    # the spheres (ground position, height, radius).
    axes = ["xyz".index(a) for a in (gu, gv)]
    spans, heights = [], []
    for o in config.obstacles:
        u = [[p.x, p.y, p.z][axes[0]] for p in o.vertices]
        spans.append((min(u), max(u)) if u else (0.0, 0.0))
        bounded = o.HasField("base") and o.HasField("top")
        heights.append((o.base, o.top) if bounded else (np.nan, np.nan))
    out["obstacle_span"] = np.asarray(spans, np.float32).reshape(-1, 2)
    out["obstacle_height"] = np.asarray(heights, np.float32).reshape(-1, 2)
    up_index = "xyz".index(up)
    out["sphere"] = np.asarray(
        [[[s.center.x, s.center.y, s.center.z][axes[0]],
          [s.center.x, s.center.y, s.center.z][axes[1]],
          [s.center.x, s.center.y, s.center.z][up_index], s.radius] for s in config.spheres],
        np.float32).reshape(-1, 4)
    defaults = config.defaults
    out["agent_radius"] = agents.get("radius", np.full(n, defaults.agent_radius or 0.2, np.float32))
    out["vehicle_length"] = vehicles.get("length",
                                         np.full(m, defaults.vehicle_length or 4.5, np.float32))
    out["vehicle_width"] = vehicles.get("width",
                                        np.full(m, defaults.vehicle_width or 1.8, np.float32))
    out["spline_points"], out["spline_offsets"] = _flatten([s.points for s in config.splines],
                                                           (gu, gv))
    out["spline_closed"] = np.array([s.closed for s in config.splines], dtype=bool)
    out["obstacle_points"], out["obstacle_offsets"] = _flatten(
        [o.vertices for o in config.obstacles], (gu, gv))
    out.update(scenario=np.array(scenario.name), size=np.array(scenario.size),
               seed=np.array(scenario.seed), dt=np.array(scenario.dt, np.float32),
               backend=np.array(backend_name), flip_vertical=np.array(flip))
    out.update(fields)
    return out


def summarize(run):
    """The numbers the demo prints, as a dict (also written as summary.json)."""
    lat = 1e3 * np.asarray(run["latency_s"])
    srv = 1e3 * np.asarray(run["server_s"])
    pct = (lambda a, q: float(np.percentile(a, q)) if a.size else 0.0)
    s = {
        "scenario": str(run["scenario"]), "backend": str(run["backend"]),
        "ticks": int(len(run["tick"])), "agents": int(run["agent_x"].shape[1]),
        "vehicles": int(run["vehicle_x"].shape[1]),
        "forward_agents": int(run["forward_x"].shape[1]) if "forward_x" in run else 0,
        "latency_ms": {"p50": pct(lat, 50), "p99": pct(lat, 99), "max": pct(lat, 100)},
        "server_tick_ms": {"p50": pct(srv, 50), "p99": pct(srv, 99)},
    }
    # A recording made before a field existed counts it as 0.
    s.update({k: int(np.sum(run[k])) if k in run else 0 for k in STAT_FIELDS})
    # The longest stall of the run is the largest of the ticks' longest, not their sum.
    s["longest_stall_ticks"] = (int(np.max(run["longest_stall_ticks"]))
                                if len(run.get("longest_stall_ticks", ())) else 0)
    s["collisions"] = int(sum(s[k] for k in COLLISION_FIELDS))
    return s


def format_summary(s):
    agent_ticks = s["ok"] + s["safe_stop"] + s["emergency"]
    share = (lambda k: f"{100 * s[k] / agent_ticks:.2f}%" if agent_ticks else "-")
    return "\n".join([
        f"scenario   {s['scenario']} on {s['backend']}: {s['ticks']} ticks, "
        f"{s['agents']} agents, {s['vehicles']} vehicles, {s['forward_agents']} forward agents",
        f"latency    round trip p50 {s['latency_ms']['p50']:.1f} ms, p99 "
        f"{s['latency_ms']['p99']:.1f} ms; server tick p50 {s['server_tick_ms']['p50']:.1f} ms, "
        f"p99 {s['server_tick_ms']['p99']:.1f} ms",
        f"solver     ok {s['ok']} ({share('ok')}), safe_stop {s['safe_stop']} "
        f"({share('safe_stop')}), emergency {s['emergency']} ({share('emergency')}) agent-ticks; "
        f"{s.get('jam_steps', 0)} of the infeasible moved by a jam step",
        f"detections oscillating {s['oscillating']}, stalled {s['stalled']}, stopped "
        f"{s['stopped']} agent-ticks; vehicles braking {s['vehicles_braking']} vehicle-ticks",
        f"stalls     {s.get('stall_episodes', 0)} episodes, the longest "
        f"{s.get('longest_stall_ticks', 0)} ticks without progress",
        f"collisions {s['collisions']} (pedestrian pairs {s['agent_overlaps']}, pedestrian-"
        f"vehicle {s['vehicle_overlaps']}, in obstacles {s['agents_in_obstacles']}, forward "
        f"agents in obstacles {s['forward_in_obstacles']}, summed over ticks); forward agents "
        f"boxed in {s['forward_blocked']} agent-ticks",
    ])


def _is_frame(path):
    return os.path.basename(os.path.dirname(path)) == "frames"


def cmd_run(args):
    if os.path.isfile(args.scenario):
        scenario = load_scenario(args.scenario)
    else:
        scenario = make_scenario(args.scenario, args.size, args.seed, tool=args.scenario_tool)
    if args.dt:
        scenario.dt = args.dt
    ticks = args.ticks or scenario.suggested_ticks or 100
    log = (lambda msg: print(msg, file=sys.stderr)) if args.verbose else None
    with Client(args.server, token=args.token, tls_ca=args.tls_ca,
                timeout=args.timeout or None) as client:
        client.wait_ready(args.connect_timeout)
        run = run_scenario(client, scenario, ticks, backend=args.backend, log=log)
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, args.name + ".npz")
    np.savez_compressed(path, **run)
    summary = summarize(run)
    with open(os.path.join(args.out, args.name + ".summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
    print(format_summary(summary))
    print(f"recorded   {path}")
    if args.render:
        from throng.render import render
        for p in render(path, args.out, max_frames=args.frames):
            if not _is_frame(p):
                print(f"wrote      {p}")
    if args.fail_on_collision and summary["collisions"]:
        print(f"error: {summary['collisions']} collisions", file=sys.stderr)
        return 3
    return 0


def _view(text):
    """XMIN,XMAX,YMIN,YMAX with XMIN < XMAX and YMIN < YMAX."""
    try:
        v = tuple(float(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: four numbers, XMIN,XMAX,YMIN,YMAX")
    if len(v) != 4 or not (v[0] < v[1] and v[2] < v[3]):
        raise argparse.ArgumentTypeError(f"{text!r}: four numbers, XMIN,XMAX,YMIN,YMAX, "
                                         "with XMIN < XMAX and YMIN < YMAX")
    return v


def cmd_render(args):
    from throng.render import render
    try:
        written = render(args.run, args.out, gif_name=args.gif, max_frames=args.frames,
                         size_px=args.size, pngs=not args.no_png, view=args.view,
                         colour=args.colour, field=False if args.no_field else args.field)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    frames = [p for p in written if _is_frame(p)]
    if frames:
        print(f"wrote      {len(frames)} frames under {os.path.dirname(frames[0])}")
    for p in written:
        if p not in frames:
            print(f"wrote      {p}")
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m throng", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run a scenario against throngd and record it")
    run.add_argument("--server", default="127.0.0.1:50051", help="host:port of throngd")
    run.add_argument("--token", default=os.environ.get("THRONG_TOKEN"), help="bearer token")
    run.add_argument("--tls-ca", help="PEM root certificate: connect with TLS")
    run.add_argument("--scenario", default="town",
                     help="a scenario name (circle, random, corridor, crossing, town, flock, "
                          "drones, bottleneck_1m, bottleneck_2m, blocks, u_trap, rimea_6, "
                          "rimea_9, rimea_9_two_exits, two_exits, blocks_navigate, "
                          "crossing_navigate) or a scenario JSON file")
    run.add_argument("--size", type=int, default=500,
                     help="pedestrians (town: + max(size/50, min(size, 20)) vehicles); forward "
                          "agents in flock and drones")
    run.add_argument("--seed", type=int, default=1)
    run.add_argument("--ticks", type=int, default=0, help="0: the scenario's suggestion")
    run.add_argument("--dt", type=float, default=0.0, help="s; 0: the scenario's")
    run.add_argument("--backend", choices=("auto", "cpu", "cuda", "reference"),
                     help="default: the server's")
    run.add_argument("--out", default="out", help="folder for <name>.npz and the summary")
    run.add_argument("--name", default="run", help="file stem of the recording")
    run.add_argument("--render", action="store_true", help="also render GIF, frames and plots")
    run.add_argument("--frames", type=int, default=60, help="most frames rendered")
    run.add_argument("--scenario-tool", help="path of throng-scenario")
    run.add_argument("--connect-timeout", type=float, default=10.0)
    run.add_argument("--timeout", type=float, default=300.0,
                     help="s per call (a stuck server fails the run instead of hanging it); 0: none")
    run.add_argument("--fail-on-collision", action="store_true",
                     help="exit 3 when any collision was detected")
    run.add_argument("-v", "--verbose", action="store_true")
    run.set_defaults(func=cmd_run)
    ren = sub.add_parser("render", help="render a recorded run (PNG frames, GIF, plots)")
    ren.add_argument("run", help="the .npz written by run")
    ren.add_argument("--out", default="out")
    ren.add_argument("--gif", help="GIF file name (default: <run>.gif)")
    ren.add_argument("--frames", type=int, default=60, help="most frames rendered")
    ren.add_argument("--size", type=int, default=720, help="frame size, pixels")
    ren.add_argument("--no-png", action="store_true", help="GIF and plots only")
    ren.add_argument("--view", type=_view, metavar="XMIN,XMAX,YMIN,YMAX",
                     help="the part of the world to show, m (a close view; default: all of it)")
    ren.add_argument("--colour", choices=("status", "travel"), default="status",
                     help="agents by the solve's outcome, or by where the run takes them "
                          "(the streams of a counter-flow)")
    ren.add_argument("--field", type=int, metavar="TARGET_ID",
                     help="the navigation target whose field is drawn under the agents "
                          "(default: the world's first, when it has any)")
    ren.add_argument("--no-field", action="store_true", help="no navigation field")
    ren.set_defaults(func=cmd_render)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except ThrongError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except (FileNotFoundError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
