"""Renders a run (the .npz `python3 -m throng run` writes) as top-down PNG frames, an
animated GIF, and plots of tick latency and solver outcomes over time. Forward agents are
arrowheads along their heading; a 3D run (forward mode cone) adds a side view (height
over the first ground axis) under the top view.

Matplotlib's object API with the Agg canvas (no pyplot, no display): one figure is built
once and its artists are updated per frame, which keeps a 10,000-agent frame well under a
second on one core. Pillow writes the GIF.
"""

import os

import numpy as np
from matplotlib.collections import EllipseCollection, LineCollection, PolyCollection
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from PIL import Image

# Display category of an agent, most severe first (status first, then condition flags).
CATEGORIES = ("ok", "safe_stop", "emergency", "oscillating", "stalled")
COLOURS = np.array([
    (0.20, 0.55, 0.85, 1.0),  # ok: blue
    (1.00, 0.60, 0.00, 1.0),  # safe_stop: orange
    (0.85, 0.10, 0.10, 1.0),  # emergency: red
    (0.60, 0.20, 0.75, 1.0),  # oscillating: purple
    (0.35, 0.35, 0.35, 1.0),  # stalled: grey
])
# colour="travel": each agent by where the run takes it (its first position to its last),
# so that the streams of a counter-flow and the lanes they form show.
TRAVEL_LABELS = ("walking east", "walking north", "walking west", "walking south")
TRAVEL_COLOURS = np.array([
    (0.20, 0.55, 0.85, 1.0),  # east: blue
    (0.30, 0.65, 0.30, 1.0),  # north: green
    (0.90, 0.45, 0.10, 1.0),  # west: orange
    (0.55, 0.35, 0.75, 1.0),  # south: purple
])
VEHICLE_COLOUR = (0.10, 0.45, 0.20, 0.9)
FORWARD_COLOUR = (0.05, 0.60, 0.60, 1.0)  # a forward agent with a free probe: teal
BLOCKED_COLOUR = (0.85, 0.10, 0.10, 1.0)  # every probe hit: red
REAR_OVERHANG = 0.22  # fraction of the length behind the rear axle (kernels/vehicles/vehicle_body.h)
OSCILLATING, STALLED = 1, 2  # AgentCondition bits


def categories(status, flags):
    """Per-agent index into CATEGORIES: emergency and safe_stop win over the flags."""
    cat = np.zeros(status.shape, dtype=np.int8)
    cat[(flags & STALLED) != 0] = 4
    cat[(flags & OSCILLATING) != 0] = 3
    cat[status == 1] = 1
    cat[status == 2] = 2
    return cat


def catmull_rom(points, closed, samples=8):
    """Polyline through a centripetal Catmull-Rom spline (docs/SPLINES.md): knot spacing
    |P[i+1] - P[i]|^0.5, mirrored phantom end points on open splines."""
    p = np.asarray(points, dtype=np.float64)
    keep = np.concatenate(([True], np.any(np.diff(p, axis=0) != 0, axis=1)))
    p = p[keep]
    if closed and len(p) > 1 and np.all(p[0] == p[-1]):
        p = p[:-1]
    if len(p) < 2:
        return p
    if closed:
        ext = np.vstack((p[-1], p, p[0], p[1]))
    else:
        ext = np.vstack((2 * p[0] - p[1], p, 2 * p[-1] - p[-2]))
    out = []
    for i in range(len(ext) - 3):
        p0, p1, p2, p3 = ext[i:i + 4]
        t0 = 0.0
        t1 = t0 + max(np.linalg.norm(p1 - p0), 1e-9) ** 0.5
        t2 = t1 + max(np.linalg.norm(p2 - p1), 1e-9) ** 0.5
        t3 = t2 + max(np.linalg.norm(p3 - p2), 1e-9) ** 0.5
        t = np.linspace(t1, t2, samples, endpoint=False)[:, None]
        a1 = (t1 - t) / (t1 - t0) * p0 + (t - t0) / (t1 - t0) * p1
        a2 = (t2 - t) / (t2 - t1) * p1 + (t - t1) / (t2 - t1) * p2
        a3 = (t3 - t) / (t3 - t2) * p2 + (t - t2) / (t3 - t2) * p3
        b1 = (t2 - t) / (t2 - t0) * a1 + (t - t0) / (t2 - t0) * a2
        b2 = (t3 - t) / (t3 - t1) * a2 + (t - t1) / (t3 - t1) * a3
        out.append((t2 - t) / (t2 - t1) * b1 + (t - t1) / (t2 - t1) * b2)
    out.append(p[:1] if closed else p[-1:])
    return np.vstack(out)


def vehicle_corners(x, y, yaw, length, width):
    """(M, 4, 2) body rectangles: the position is the rear-axle centre."""
    h = np.stack((np.cos(yaw), np.sin(yaw)), axis=-1)
    r = np.stack((h[:, 1], -h[:, 0]), axis=-1)  # right of the heading
    axle = np.stack((x, y), axis=-1)
    back = axle - h * (REAR_OVERHANG * length)[:, None]
    front = axle + h * ((1 - REAR_OVERHANG) * length)[:, None]
    side = r * (0.5 * width)[:, None]
    return np.stack((back - side, front - side, front + side, back + side), axis=1)


def arrowheads(x, y, hx, hy, radius):
    """(K, 3, 2) triangles pointing along (hx, hy): tip one radius ahead of the centre,
    the base corners behind it at either side."""
    h = np.stack((hx, hy), axis=-1).astype(np.float64)
    norm = np.linalg.norm(h, axis=-1, keepdims=True)
    h = np.where(norm > 0, h / np.where(norm > 0, norm, 1), [1.0, 0.0])
    side = np.stack((-h[:, 1], h[:, 0]), axis=-1)
    c = np.stack((x, y), axis=-1)
    r = np.broadcast_to(radius, (len(c),))[:, None] * 1.5
    return np.stack((c + h * r, c - h * r * 0.6 + side * r * 0.7, c - h * r * 0.6 - side * r * 0.7),
                    axis=1)


def travel_sectors(run):
    """Per agent, the quarter its whole-run displacement points into: 0 east, 1 north,
    2 west, 3 south (an agent that does not move counts as east)."""
    x, y = run["agent_x"], run["agent_y"]
    angle = np.arctan2(y[-1] - y[0], x[-1] - x[0])
    return (np.round(angle / (np.pi / 2)).astype(int) % 4)


def has_forward(run):
    return "forward_x" in run and run["forward_x"].ndim == 2 and run["forward_x"].shape[1] > 0


def _split(points, offsets):
    return [points[offsets[i]:offsets[i + 1]] for i in range(len(offsets) - 1)]


def _bounds(run, aspect=1.0):
    """A view that holds the crowd and the vehicles (robust percentiles: a few strays do
    not shrink everyone else) and every obstacle whole (a room's walls are a handful of
    points beside thousands of positions, and a percentile would cut them off)."""
    xs = [run["agent_x"].ravel(), run["vehicle_x"].ravel()]
    ys = [run["agent_y"].ravel(), run["vehicle_y"].ravel()]
    if has_forward(run):
        xs.append(run["forward_x"].ravel())
        ys.append(run["forward_y"].ravel())
    x, y = np.concatenate(xs), np.concatenate(ys)
    x, y = x[np.isfinite(x)], y[np.isfinite(y)]
    walls = run["obstacle_points"]
    walls = walls[np.all(np.isfinite(walls), axis=1)] if len(walls) else walls
    if x.size == 0 and len(walls) == 0:
        return (-10, 10), (-10, 10)
    lo = np.array([np.inf, np.inf])
    hi = -lo
    if x.size:
        lo = np.array([np.percentile(x, 0.5), np.percentile(y, 0.5)])
        hi = np.array([np.percentile(x, 99.5), np.percentile(y, 99.5)])
    if len(walls):
        lo = np.minimum(lo, walls[:, :2].min(axis=0))
        hi = np.maximum(hi, walls[:, :2].max(axis=0))
    pad = 0.05 * max(hi - lo) + 2.0
    lo, hi = lo - pad, hi + pad
    # Widen the narrower side to the axes' shape (`aspect`: height / width), so that equal
    # scales leave the limits as they are instead of cutting the longer side down.
    width, height = hi - lo
    if height < aspect * width:
        grow = 0.5 * (aspect * width - height)
        lo[1], hi[1] = lo[1] - grow, hi[1] + grow
    else:
        grow = 0.5 * (height / aspect - width)
        lo[0], hi[0] = lo[0] - grow, hi[0] + grow
    return (lo[0], hi[0]), (lo[1], hi[1])


class FrameRenderer:
    """One figure for a whole run; frame(t) returns tick t as an RGB array."""

    def __init__(self, run, size_px=720, view=None, colour="status", field=None):
        self.run = run
        self.travel = travel_sectors(run) if colour == "travel" else None
        self.fig = Figure(figsize=(size_px / 100, size_px / 100), dpi=100)
        self.canvas = FigureCanvasAgg(self.fig)
        self.side = None
        cone = has_forward(run) and bool(run.get("forward_cone", False))
        box = (0.06, 0.30, 0.90, 0.62) if cone else (0.04, 0.04, 0.92, 0.88)
        ax = self.fig.add_axes(box)
        self.ax = ax
        if field is not None:
            # First: imshow sets the limits to the field's grid, and the run's view below
            # replaces them.
            draw_field(ax, field)
        # `view`: (xmin, xmax, ymin, ymax) to look at (a close view); else the whole run.
        xlim, ylim = (view[:2], view[2:]) if view else _bounds(run, aspect=box[3] / box[2])
        ax.set_xlim(*xlim)
        ax.set_ylim(*ylim)
        ax.set_aspect("equal", adjustable="datalim")
        if bool(run["flip_vertical"]):
            ax.invert_yaxis()
        ax.tick_params(labelsize=7)
        obstacles = _split(run["obstacle_points"], run["obstacle_offsets"])
        if obstacles:
            ax.add_collection(PolyCollection(obstacles, facecolors="0.55", edgecolors="0.3",
                                             linewidths=0.8, zorder=1))
        lanes = [catmull_rom(p, c) for p, c in zip(
            _split(run["spline_points"], run["spline_offsets"]), run["spline_closed"])]
        if lanes:
            ax.add_collection(LineCollection(lanes, colors="0.75", linewidths=1.0, zorder=0))
        n = run["agent_x"].shape[1]
        # True size, but at least ~1.5 pixels wide: a 0.3 m pedestrian in a 600 m town
        # would otherwise vanish.
        metres_per_pixel = max(np.ptp(xlim), np.ptp(ylim)) / (0.92 * size_px)
        diameter = np.maximum(2 * np.broadcast_to(run["agent_radius"], (n,)),
                              1.5 * metres_per_pixel)
        self.agents = EllipseCollection(diameter, diameter, np.zeros(n), units="xy",
                                        offsets=np.zeros((n, 2)), offset_transform=ax.transData,
                                        linewidths=0, zorder=3)
        ax.add_collection(self.agents)
        self.vehicles = PolyCollection([], facecolors=VEHICLE_COLOUR, edgecolors="k",
                                       linewidths=0.4, zorder=5)
        ax.add_collection(self.vehicles)
        # Look-ahead: a thin line from the axle to the target, under the body.
        self.look = LineCollection([], colors="crimson", linewidths=0.5, alpha=0.7, zorder=4)
        ax.add_collection(self.look)
        (self.targets,) = ax.plot([], [], ".", color="crimson", markersize=2, zorder=4)
        self.forward = None
        if has_forward(run):
            self.forward = PolyCollection([], facecolors=FORWARD_COLOUR, edgecolors="none",
                                          zorder=6)
            ax.add_collection(self.forward)
        if cone:
            self._side_view(run, xlim)
        if self.travel is None:
            handles = [Patch(color=COLOURS[i], label=c) for i, c in enumerate(CATEGORIES)]
        else:
            handles = [Patch(color=TRAVEL_COLOURS[k], label=TRAVEL_LABELS[k])
                       for k in sorted(set(self.travel.tolist()))]
        handles.append(Patch(color=VEHICLE_COLOUR, label="vehicle"))
        if has_forward(run):
            handles.append(Patch(color=FORWARD_COLOUR, label="forward agent"))
            handles.append(Patch(color=BLOCKED_COLOUR, label="forward, boxed in"))
        ax.legend(handles=handles, loc="upper right", fontsize=7, framealpha=0.8)
        self.title = self.fig.text(0.04, 0.95, "", fontsize=9)

    def _side_view(self, run, xlim):
        """Height over the first ground axis: pillars as their spans and height ranges,
        spheres as circles, drones as dots."""
        side = self.fig.add_axes((0.06, 0.05, 0.90, 0.19))
        self.side = side
        side.set_xlim(*xlim)
        up = run["forward_up"]
        lo, hi = float(np.nanmin(up)), float(np.nanmax(up))
        spans, heights = run.get("obstacle_span"), run.get("obstacle_height")
        rects = []
        if spans is not None and heights is not None:
            for (u0, u1), (b, top) in zip(spans, heights):
                if np.isfinite(b) and np.isfinite(top):
                    rects.append([(u0, b), (u1, b), (u1, top), (u0, top)])
                    lo, hi = min(lo, b), max(hi, top)
        if rects:
            side.add_collection(PolyCollection(rects, facecolors="0.55", edgecolors="0.3",
                                               linewidths=0.4, alpha=0.5, zorder=1))
        spheres = run.get("sphere")
        if spheres is not None and len(spheres):
            d = 2 * spheres[:, 3]
            side.add_collection(EllipseCollection(d, d, np.zeros(len(d)), units="xy",
                                                  offsets=spheres[:, [0, 2]],
                                                  offset_transform=side.transData,
                                                  facecolors="0.45", alpha=0.5, zorder=1))
        pad = 0.05 * (hi - lo) + 1.0
        side.set_ylim(lo - pad, hi + pad)
        side.set_ylabel("height", fontsize=7)
        side.tick_params(labelsize=6)
        (self.side_dots,) = side.plot([], [], ".", color=FORWARD_COLOUR, markersize=1.5, zorder=3)

    def frame(self, t):
        run = self.run
        self.agents.set_offsets(np.column_stack((run["agent_x"][t], run["agent_y"][t])))
        cat = categories(run["agent_status"][t], run["agent_flags"][t])
        self.agents.set_facecolor(COLOURS[cat] if self.travel is None else
                                  TRAVEL_COLOURS[self.travel])
        if run["vehicle_x"].shape[1]:
            vx, vy = run["vehicle_x"][t], run["vehicle_y"][t]
            self.vehicles.set_verts(vehicle_corners(vx, vy, run["vehicle_yaw"][t],
                                                    run["vehicle_length"], run["vehicle_width"]))
            tx, ty = run["vehicle_target_x"][t], run["vehicle_target_y"][t]
            ok = np.isfinite(tx) & np.isfinite(ty)
            self.targets.set_data(tx[ok], ty[ok])
            self.look.set_segments(np.stack((np.column_stack((vx, vy))[ok],
                                             np.column_stack((tx, ty))[ok]), axis=1))
        forward_note = ""
        if self.forward is not None:
            fx, fy = run["forward_x"][t], run["forward_y"][t]
            self.forward.set_verts(arrowheads(fx, fy, run["forward_hx"][t], run["forward_hy"][t],
                                              run["forward_radius"]))
            blocked = run["forward_boxed_in"][t] != 0
            self.forward.set_facecolor(np.where(blocked[:, None], BLOCKED_COLOUR, FORWARD_COLOUR))
            forward_note = f"  forward {fx.size} (boxed in {int(blocked.sum())})"
            if self.side is not None:
                self.side_dots.set_data(fx, run["forward_up"][t])
        counts = np.bincount(cat.ravel(), minlength=len(CATEGORIES))
        self.title.set_text(
            f"{run['scenario']}  tick {int(run['tick'][t])}  agents {cat.size}  "
            f"vehicles {run['vehicle_x'].shape[1]}{forward_note}  " +
            "  ".join(f"{c} {k}" for c, k in zip(CATEGORIES[1:], counts[1:])))
        self.canvas.draw()
        return np.asarray(self.canvas.buffer_rgba())[..., :3].copy()


def draw_field(ax, field, levels=12):
    """A navigation field (Client.navigation_field) under whatever `ax` shows next: the
    distance to the target as shades (near: light, far: dark), equal-distance contours,
    and the cells the target cannot be reached from (in or near an obstacle) in grey.
    Returns the image artist."""
    d = np.asarray(field["distance"], dtype=np.float32)
    rows, cols = d.shape
    x0, y0 = field["origin"]
    extent = (x0, x0 + cols * field["cell"], y0, y0 + rows * field["cell"])
    reachable = np.isfinite(d)
    shown = np.ma.masked_where(~reachable, d)
    image = ax.imshow(shown, origin="lower", extent=extent, cmap="Blues", zorder=0,
                      interpolation="nearest")
    ax.imshow(np.ma.masked_where(reachable, np.ones_like(d)), origin="lower", extent=extent,
              cmap="Greys", vmin=0, vmax=2, zorder=0, interpolation="nearest")
    if reachable.any() and np.ptp(d[reachable]) > 0:
        xs = x0 + (np.arange(cols) + 0.5) * field["cell"]
        ys = y0 + (np.arange(rows) + 0.5) * field["cell"]
        ax.contour(xs, ys, shown, levels=levels, colors="white", linewidths=0.5, zorder=0.5)
    return image


def render_field(field, path, agents=None, size_px=720):
    """One PNG of a navigation field with the agents (a dict of "x" and "y" arrays, in the
    field's frame) on top."""
    fig = Figure(figsize=(size_px / 100, size_px / 100), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    ax.set_aspect("equal")
    draw_field(ax, field)
    if agents is not None and len(agents["x"]):
        ax.scatter(agents["x"], agents["y"], s=6, color=COLOURS[0], zorder=2)
    ax.set_title(f"navigation target {field['target_id']}: distance to it")
    fig.savefig(path)
    return path


def plot_stats(run, out_dir):
    """latency.png (client round trip and server tick per tick) and outcomes.png."""
    tick = run["tick"]
    paths = []
    fig = Figure(figsize=(8, 3.5), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.plot(tick, 1e3 * run["latency_s"], label="client round trip", lw=1)
    ax.plot(tick, 1e3 * run["server_s"], label="server tick", lw=1)
    ax.set_xlabel("tick")
    ax.set_ylabel("ms")
    ax.set_title(f"{run['scenario']}: tick latency")
    ax.legend(fontsize=8)
    fig.tight_layout()
    paths.append(os.path.join(out_dir, "latency.png"))
    fig.savefig(paths[-1])

    fig = Figure(figsize=(8, 3.5), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for key in ("safe_stop", "emergency", "oscillating", "stalled", "stopped",
                "agent_overlaps", "vehicle_overlaps", "agents_in_obstacles", "forward_blocked",
                "forward_in_obstacles"):
        if key in run:
            ax.plot(tick, run[key], label=key, lw=1)
    ax.set_xlabel("tick")
    ax.set_ylabel("agents (overlaps: pairs)")
    ax.set_title(f"{run['scenario']}: solver outcomes and detections per tick "
                 f"(ok: the rest of {run['agent_x'].shape[1]})")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    paths.append(os.path.join(out_dir, "outcomes.png"))
    fig.savefig(paths[-1])
    return paths


def load_run(path):
    with np.load(path, allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


def recorded_field(run, target_id=None):
    """The navigation field a run recorded for `target_id` (None: its first target), as
    draw_field takes it, or None when the run has none. Raises ValueError for a target the
    run does not have."""
    ids = [int(i) for i in run.get("field_ids", ())]
    if not ids:
        if target_id is not None:
            raise ValueError(f"--field {target_id}: the run recorded no navigation fields")
        return None
    if target_id is None:
        target_id = ids[0]
    if target_id not in ids:
        raise ValueError(f"--field {target_id}: the run's targets are {ids}")
    k = ids.index(target_id)
    return {"distance": run[f"field_distance_{k}"], "origin": tuple(run[f"field_origin_{k}"]),
            "cell": float(run[f"field_cell_{k}"]), "target_id": target_id}


def render(run_path, out_dir, gif_name=None, max_frames=60, size_px=720, pngs=True, view=None,
           colour="status", field=None):
    """Writes frames/frame_NNNN.png, <gif_name> (default: the run's name .gif) and the
    plots into `out_dir`; returns the paths written. `view`: (xmin, xmax, ymin, ymax) in
    the run's frame, or None for a view of the whole run. `colour`: "status" (the solve's
    outcome and the detections) or "travel" (where the run takes each agent). `field`: the
    navigation target whose recorded field is drawn under everything (None: the first, when
    the run recorded any; False: none)."""
    run = load_run(run_path)
    nav_field = None if field is False else recorded_field(run, field)
    os.makedirs(out_dir, exist_ok=True)
    ticks = run["agent_x"].shape[0]
    if ticks == 0:
        raise ValueError(f"{run_path}: the run has no ticks")
    every = max(1, -(-ticks // max_frames))  # ceil: at most max_frames frames
    chosen = list(range(0, ticks, every))
    if chosen[-1] != ticks - 1:
        chosen.append(ticks - 1)  # always show the end
    renderer = FrameRenderer(run, size_px, view, colour, nav_field)
    images = [Image.fromarray(renderer.frame(t)) for t in chosen]
    written = []
    if pngs:
        frame_dir = os.path.join(out_dir, "frames")
        os.makedirs(frame_dir, exist_ok=True)
        for i, image in zip(chosen, images):
            written.append(os.path.join(frame_dir, f"frame_{i:04d}.png"))
            image.save(written[-1])
    gif = os.path.join(out_dir, gif_name or
                       os.path.splitext(os.path.basename(run_path))[0] + ".gif")
    # Real-time playback where GIF timing allows (browsers floor delays under 20 ms).
    duration = max(20, int(round(1000 * float(run["dt"]) * every)))
    images[0].save(gif, save_all=True, append_images=images[1:], duration=duration, loop=0,
                   optimize=False)
    written.append(gif)
    written += plot_stats(run, out_dir)
    return written
