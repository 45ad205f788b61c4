"""The renderer writes valid PNG frames, an animated GIF whose frames change as agents
move, and the two plots."""

import argparse
import os

import numpy as np
from PIL import Image

from conftest import synthetic_run
from throng import cli, render


def _write_run(tmp_path, run):
    path = os.path.join(tmp_path, "synthetic.npz")
    np.savez_compressed(path, **run)
    return path


def test_render_writes_frames_gif_and_plots(tmp_path):
    path = _write_run(tmp_path, synthetic_run(ticks=12))
    written = render.render(path, str(tmp_path / "out"), max_frames=6, size_px=320)
    frames = sorted(p for p in written if os.path.basename(os.path.dirname(p)) == "frames")
    gif = [p for p in written if p.endswith(".gif")]
    assert gif == [str(tmp_path / "out" / "synthetic.gif")]
    # ceil(12 / 6) = every 2nd tick, plus the last: 0 2 4 6 8 10 11
    assert [os.path.basename(p) for p in frames] == [f"frame_{i:04d}.png" for i in
                                                    (0, 2, 4, 6, 8, 10, 11)]
    for p in frames:
        with Image.open(p) as im:
            im.verify()
        with Image.open(p) as im:
            assert im.format == "PNG" and im.size == (320, 320)
    with Image.open(gif[0]) as im:
        assert im.format == "GIF" and im.size == (320, 320) and im.n_frames == len(frames)
        pictures = []
        for k in range(im.n_frames):
            im.seek(k)
            pictures.append(np.asarray(im.convert("RGB"), dtype=np.int16))
    # agents walk 1 m per tick: consecutive frames differ, and by more than a few pixels
    for a, b in zip(pictures, pictures[1:]):
        assert np.count_nonzero(np.any(a != b, axis=-1)) > 50
    for name in ("latency.png", "outcomes.png"):
        with Image.open(tmp_path / "out" / name) as im:
            assert im.format == "PNG" and im.size[0] > 300


def test_status_colours_show_in_frames(tmp_path):
    run = synthetic_run(ticks=4, n=1, m=0)
    run["agent_x"][:] = 0
    run["agent_radius"][:] = 3.0  # a big disc, easy to find
    run["agent_status"][2:] = 2  # emergency from tick 2
    path = _write_run(tmp_path, run)
    r = render.FrameRenderer(render.load_run(path), size_px=200)
    red = render.COLOURS[2][:3] * 255
    def red_pixels(image):  # the legend has a red patch too: compare counts
        return np.count_nonzero(np.all(np.abs(image.astype(int) - red) < 8, axis=-1))
    assert red_pixels(r.frame(3)) > red_pixels(r.frame(0)) + 100


def test_categories_precedence():
    status = np.array([0, 1, 2, 0, 0, 1], np.uint8)
    flags = np.array([0, 1, 2, 1, 2, 3], np.uint8)
    assert render.categories(status, flags).tolist() == [0, 1, 2, 3, 4, 1]


def test_vehicle_corners_put_the_axle_near_the_back():
    c = render.vehicle_corners(np.array([0.0]), np.array([0.0]), np.array([0.0]),
                               np.array([4.5]), np.array([1.8]))[0]
    assert np.allclose(c[:, 0].min(), -0.22 * 4.5) and np.allclose(c[:, 0].max(), 0.78 * 4.5)
    assert np.allclose(sorted(set(np.round(c[:, 1], 6))), [-0.9, 0.9])


def test_catmull_rom_passes_through_its_points():
    pts = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], float)
    line = render.catmull_rom(pts, closed=True, samples=4)
    for p in pts:
        assert np.min(np.linalg.norm(line - p, axis=1)) < 1e-9
    assert np.allclose(line[0], line[-1])  # closed


def test_summary_counts_collisions():
    run = synthetic_run(ticks=5)
    s = cli.summarize(run)
    assert s["ticks"] == 5 and s["agents"] == 40 and s["vehicles"] == 3
    assert s["collisions"] == int(run["agent_overlaps"].sum() + run["vehicle_overlaps"].sum()
                                  + run["agents_in_obstacles"].sum())
    assert "collisions" in cli.format_summary(s)


def _with_forward(run, k=6, cone=True):
    """Adds k forward agents flying +x at rising heights, the last one boxed in."""
    ticks = run["agent_x"].shape[0]
    t = np.arange(ticks)[:, None]
    run.update(
        forward_x=np.broadcast_to(-5.0 + 1.5 * t, (ticks, k)).astype(np.float32),
        forward_y=np.broadcast_to(np.linspace(-4, 4, k), (ticks, k)).astype(np.float32),
        forward_up=np.broadcast_to(np.linspace(2, 12, k), (ticks, k)).astype(np.float32),
        forward_hx=np.ones((ticks, k), np.float32), forward_hy=np.zeros((ticks, k), np.float32),
        forward_boxed_in=np.zeros((ticks, k), np.uint8), forward_radius=np.full(k, 0.8, np.float32),
        forward_cone=np.array(cone), obstacle_span=np.array([[2, 4]], np.float32),
        obstacle_height=np.array([[0, 10]], np.float32),
        sphere=np.array([[8, 0, 6, 2]], np.float32))
    run["forward_boxed_in"][:, -1] = 1
    return run


def test_forward_agents_are_drawn_with_a_side_view_in_3d(tmp_path):
    run = _with_forward(synthetic_run(ticks=4, n=1, m=0))
    path = _write_run(tmp_path, run)
    r = render.FrameRenderer(render.load_run(path), size_px=300)
    assert r.side is not None and r.forward is not None
    image = r.frame(2)
    teal = np.array(render.FORWARD_COLOUR[:3]) * 255
    assert np.count_nonzero(np.all(np.abs(image.astype(int) - teal) < 8, axis=-1)) > 30
    # the side view shows the drones at their heights: dots in its axes
    xs, ys = r.side_dots.get_data()
    assert np.allclose(ys, np.linspace(2, 12, 6))
    flat = render.FrameRenderer(render.load_run(_write_run(tmp_path, _with_forward(
        synthetic_run(ticks=2, n=1, m=0), cone=False))), size_px=300)
    assert flat.side is None


def test_arrowheads_point_along_the_heading():
    tri = render.arrowheads(np.array([0.0]), np.array([0.0]), np.array([0.0]), np.array([2.0]),
                            np.array([1.0]))[0]
    assert np.allclose(tri[0], [0, 1.5])  # the tip, one and a half radii ahead
    assert tri[1][1] < 0 and tri[2][1] < 0


def test_summary_counts_forward_agents_in_obstacles_as_collisions():
    run = _with_forward(synthetic_run(ticks=3))
    run["forward_in_obstacles"] = np.array([0, 2, 1])
    run["forward_blocked"] = np.array([1, 1, 1])
    s = cli.summarize(run)
    assert s["forward_agents"] == 6 and s["forward_in_obstacles"] == 3
    assert s["collisions"] == int(run["agent_overlaps"].sum() + run["vehicle_overlaps"].sum()
                                  + run["agents_in_obstacles"].sum()) + 3


def test_default_view_holds_every_obstacle_and_fits_the_axes():
    # A room's walls are a handful of points beside thousands of positions: the view
    # must hold them whole, not cut them at the positions' percentiles.
    run = synthetic_run()
    run["obstacle_points"] = np.array([[-500, -3], [-500, 3]], np.float32)  # a wall
    run["obstacle_offsets"] = np.array([0, 2])
    (x0, x1), (y0, y1) = render._bounds(run)
    assert x0 < -500 and y0 < -3 and y1 > 3
    assert abs((x1 - x0) - (y1 - y0)) < 1e-6 * (x1 - x0)  # square, as the axes
    (x0, x1), (y0, y1) = render._bounds(run, aspect=0.5)
    assert abs((y1 - y0) - 0.5 * (x1 - x0)) < 1e-6 * (x1 - x0)


def test_render_shows_the_view_asked_for(tmp_path):
    path = _write_run(tmp_path, synthetic_run())
    renderer = render.FrameRenderer(render.load_run(path), 200, view=(-1.0, 1.0, -2.0, 0.0))
    renderer.frame(0)
    # Everything asked for is shown, and little more (equal scales on a near-square box).
    (x0, x1), (y0, y1) = renderer.ax.get_xlim(), renderer.ax.get_ylim()
    assert x0 <= -1.0 and x1 >= 1.0 and y0 <= -2.0 and y1 >= 0.0
    assert x1 - x0 <= 2.2 and y1 - y0 <= 2.2
    assert cli._view("-1,1,-2,0") == (-1.0, 1.0, -2.0, 0.0)
    for bad in ("1,-1,0,2", "1,2,3", "a,b,c,d"):
        try:
            cli._view(bad)
        except argparse.ArgumentTypeError:
            continue
        raise AssertionError(f"{bad} was accepted")


def test_travel_colours_follow_each_agents_whole_run():
    run = synthetic_run()  # everyone walks +x
    assert set(render.travel_sectors(run).tolist()) == {0}
    run["agent_x"] = run["agent_x"][::-1].copy()  # now -x
    assert set(render.travel_sectors(run).tolist()) == {2}
    run["agent_y"] = run["agent_y"] + np.linspace(0, 50, len(run["tick"]))[:, None]
    assert set(render.travel_sectors(run).tolist()) == {1}  # mostly +y
    renderer = render.FrameRenderer(run, 200, colour="travel")
    renderer.frame(0)
    assert np.allclose(renderer.agents.get_facecolor()[0], render.TRAVEL_COLOURS[1])


def test_a_navigation_field_draws_under_the_agents(tmp_path):
    """Distances as shades (near light, far dark), unreachable cells grey, agents on top."""
    rows, cols = 40, 60
    ys, xs = np.mgrid[0:rows, 0:cols]
    distance = np.hypot(xs - 5.0, ys - 20.0).astype(np.float32) * 0.5
    distance[10:30, 28:32] = np.inf  # a wall nothing behind it is measured through
    field = {"target_id": 3, "origin": (-15.0, -10.0), "cell": 0.5, "distance": distance}
    path = render.render_field(field, str(tmp_path / "field.png"),
                               agents={"x": np.array([0.0, 5.0]), "y": np.array([0.0, 2.0])})
    image = np.asarray(Image.open(path).convert("RGB")).astype(int)
    assert image.shape[0] == 720 and image.shape[1] == 720

    fig = render.Figure()
    ax = fig.add_subplot(1, 1, 1)
    shown = render.draw_field(ax, field).get_array()
    assert shown.mask[20, 30] and not shown.mask[20, 5]  # the wall's cells are left out
    assert shown[20, 5] < shown[20, 55]                   # near the target, far from it


def _with_field(run, ids=(4,)):
    """`run` with a recorded field per target (as run_scenario records them): distance
    growing along x over the synthetic run's ground, 1 m cells."""
    ys, xs = np.mgrid[0:30, 0:40]
    run["field_ids"] = np.array(ids, np.uint32)
    for k, _ in enumerate(ids):
        run[f"field_distance_{k}"] = (xs + 10.0 * k).astype(np.float32)
        run[f"field_origin_{k}"] = np.array([-20.0, -15.0], np.float32)
        run[f"field_cell_{k}"] = np.array(1.0, np.float32)
    return run


def test_a_recorded_field_is_drawn_under_the_agents_unless_asked_not_to(tmp_path):
    path = _write_run(tmp_path, _with_field(synthetic_run(ticks=2, n=1, m=0)))
    run = render.load_run(path)
    field = render.recorded_field(run)
    assert field["target_id"] == 4 and field["cell"] == 1.0
    assert field["origin"] == (-20.0, -15.0) and field["distance"].shape == (30, 40)

    def blue_share(image):  # the field's shades: blue over red and green
        rgb = image.astype(int)
        return np.mean((rgb[..., 2] > rgb[..., 0] + 20) & (rgb[..., 2] > rgb[..., 1] - 5))
    with_field = render.FrameRenderer(run, size_px=200, field=field).frame(0)
    without = render.FrameRenderer(run, size_px=200).frame(0)
    assert blue_share(with_field) > blue_share(without) + 0.3

    written = render.render(path, str(tmp_path / "out"), max_frames=1, size_px=200, field=False)
    assert written  # --no-field: nothing drawn, nothing refused


def test_a_recorded_field_is_chosen_by_target_and_an_unknown_one_is_named():
    run = _with_field(synthetic_run(ticks=2, n=1, m=0), ids=(4, 9))
    assert render.recorded_field(run, 9)["distance"][0, 0] == 10.0
    try:
        render.recorded_field(run, 5)
        raise AssertionError("no error")
    except ValueError as e:
        assert "--field 5" in str(e) and "[4, 9]" in str(e)
    assert render.recorded_field(synthetic_run(ticks=2)) is None


def test_run_records_fields_in_the_recordings_axes():
    """A field fetched in the engine's internal plane is mirrored for frames whose second
    ground axis is the internal one negated (the frames the view flips)."""

    class FakeClient:
        def navigation_field(self, world_id, target_id):
            return {"distance": np.array([[1, 2], [3, 4], [5, 6]], np.float32),
                    "origin": (10.0, 20.0), "cell": 0.5, "target_id": target_id}

    class Target:
        id = 7

    class Config:
        navigation_targets = [Target()]

    plain = cli._record_fields(FakeClient(), "w", Config(), flip=False)
    assert plain["field_ids"].tolist() == [7]
    assert plain["field_distance_0"][0].tolist() == [1, 2]
    assert plain["field_origin_0"].tolist() == [10.0, 20.0]
    mirrored = cli._record_fields(FakeClient(), "w", Config(), flip=True)
    # Internal y from 20 to 21.5 is the caller's -21.5 to -20, rows reversed.
    assert mirrored["field_distance_0"][0].tolist() == [5, 6]
    assert mirrored["field_origin_0"].tolist() == [10.0, -21.5]
