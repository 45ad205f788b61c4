#!/usr/bin/env python3
"""Plots throng-bench-lanes --json output: RMS |cte| per course and set speed for Throng's
follower, pure pursuit and Stanley, one panel per course and steering lag (log scale).

    /usr/bin/python3 bench/lanes/plot_lanes.py bench/results/lanes/lanes_60hz.json docs/lanes.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(path, out):
    cells = [c for c in json.load(open(path))["cells"] if c["start"] == "on"]
    courses = list(dict.fromkeys(c["course"] for c in cells))
    lags = sorted(set(c["lag"] for c in cells))
    fig, axes = plt.subplots(len(lags), len(courses), figsize=(4 * len(courses), 3.2 * len(lags)),
                             sharey=True, squeeze=False)
    for row, lag in enumerate(lags):
        for col, course in enumerate(courses):
            ax = axes[row][col]
            mine = [c for c in cells if c["course"] == course and c["lag"] == lag]
            speeds = [c["set_speed"] for c in mine]
            for who, style in (("throng", "o-"), ("pure_pursuit", "s--"), ("stanley", "^:")):
                ys = [c[who]["rms"] if c[who]["completed"] else float("nan") for c in mine]
                ax.plot(speeds, ys, style, label=who.replace("_", " "))
            ax.set_yscale("log")
            ax.set_title(f"{course}, lag {lag:.1f} s")
            ax.set_xlabel("set speed, m/s")
            if col == 0:
                ax.set_ylabel("RMS |cte|, m")
            ax.grid(True, which="both", alpha=0.3)
    axes[0][0].legend()
    fig.tight_layout()
    fig.savefig(out, dpi=90)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
