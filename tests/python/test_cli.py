"""python3 -m throng run and render, as the demo runs them, against a real throngd."""

import json
import os
import subprocess
import sys

from PIL import Image


def _throng(*args, **kw):
    return subprocess.run([sys.executable, "-m", "throng", *args], capture_output=True,
                          text=True, timeout=300, **kw)


def test_run_then_render(server, scenario_tool, tmp_path):
    out = tmp_path / "out"
    p = _throng("run", "--server", server, "--scenario", "town", "--size", "100", "--ticks",
                "20", "--backend", "cpu", "--out", str(out), "--name", "demo",
                "--scenario-tool", scenario_tool, "--fail-on-collision")
    assert p.returncode in (0, 3), p.stderr
    for word in ("ticks", "latency", "p50", "p99", "safe_stop", "emergency", "oscillating",
                 "collisions"):
        assert word in p.stdout, p.stdout
    summary = json.loads((out / "demo.summary.json").read_text())
    assert summary["ticks"] == 20 and summary["agents"] == 100 and summary["vehicles"] == 20
    assert (p.returncode == 3) == (summary["collisions"] > 0)

    p = _throng("render", str(out / "demo.npz"), "--out", str(out), "--frames", "5",
                "--size", "300")
    assert p.returncode == 0, p.stderr
    with Image.open(out / "demo.gif") as gif:
        assert gif.size == (300, 300) and gif.n_frames >= 5
    assert len(os.listdir(out / "frames")) == gif.n_frames
    assert (out / "latency.png").stat().st_size > 0 and (out / "outcomes.png").stat().st_size > 0


def test_run_reports_a_missing_server(tmp_path):
    p = _throng("run", "--server", "127.0.0.1:1", "--scenario", "no-such-file-or-name",
                "--connect-timeout", "1", "--out", str(tmp_path))
    assert p.returncode == 2 and "error:" in p.stderr


def test_run_records_the_navigation_field_and_render_draws_it(server, scenario_tool, tmp_path):
    import numpy as np
    out = tmp_path / "out"
    p = _throng("run", "--server", server, "--scenario", "u_trap", "--size", "30", "--ticks",
                "5", "--out", str(out), "--name", "trap", "--scenario-tool", scenario_tool)
    assert p.returncode == 0, p.stderr
    with np.load(out / "trap.npz") as run:
        assert run["field_ids"].tolist() == [1]
        distance = run["field_distance_0"]
        assert distance.ndim == 2 and np.isfinite(distance).any() and np.isinf(distance).any()
        assert float(run["field_cell_0"]) == 0.25
    p = _throng("render", str(out / "trap.npz"), "--out", str(out), "--frames", "2",
                "--size", "200", "--field", "1")
    assert p.returncode == 0, p.stderr
    p = _throng("render", str(out / "trap.npz"), "--out", str(out), "--field", "99")
    assert p.returncode == 2 and "--field 99: the run's targets are [1]" in p.stderr
