"""The renderer writes valid PNG frames, an animated GIF whose frames change as agents
move, and the two plots."""

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
