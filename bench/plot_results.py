#!/usr/bin/python3
"""Plots ms per tick against agents for each backend and scenario from throng-bench-orca
JSON files: python3 bench/plot_results.py OUT.png RESULT.json [RESULT.json ...]"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main() -> None:
    out, paths = sys.argv[1], sys.argv[2:]
    series = {}
    for path in paths:
        with open(path) as f:
            for r in json.load(f)["results"]:
                key = f'{r["backend"]} {r["scenario"]} ({r["variant"]})'
                series.setdefault(key, []).append((r["agents"], r["median_ms"]["tick"]))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for key, points in sorted(series.items()):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=key)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("agents")
    ax.set_ylabel("median ms per tick")
    ax.set_title("ORCA step, ms per tick against agents")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
