#!/usr/bin/python3
"""Plots median ms per tick against agents for each backend and scenario, from the JSON of
throng-bench (world ticks) or throng-bench-orca (ORCA steps):

    python3 bench/plot_results.py OUT.png RESULT.json [RESULT.json ...]

World-tick results are keyed by backend and scenario, with one colour per scenario and one
line style per backend; their x axis counts pedestrians and vehicles. ORCA-step results
are keyed by backend, scenario and variant, as before."""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

BACKEND_STYLE = {"cuda": ("-", "s"), "cpu": ("-", "o"), "reference": (":", "^")}


def load(paths):
    """{(kind, backend, scenario, variant): [(agents, ms)]} over every result file."""
    series = {}
    world = {}  # (key, agents) -> (is single-backend run, ms)
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        kind = doc.get("benchmark", "orca_steps")
        for r in doc["results"]:
            if kind == "world_tick":
                # A size run both alone and in a --compare keeps the run alone: it had the
                # cores to itself.
                key = (kind, r["backend"], r["scenario"], "")
                x = r["agents"] + r["vehicles"]
                single = r.get("mode") != "compare"
                if world.get((key, x), (False, 0))[0] and not single:
                    continue
                world[(key, x)] = (single, r["tick_ms"]["median"])
            else:
                key = (kind, r["backend"], r["scenario"], r["variant"])
                series.setdefault(key, []).append((r["agents"], r["median_ms"]["tick"]))
    for (key, x), (_, ms) in world.items():
        series.setdefault(key, []).append((x, ms))
    return series


def main() -> None:
    out, paths = sys.argv[1], sys.argv[2:]
    series = load(paths)
    kinds = {k[0] for k in series}
    scenarios = sorted({k[2] for k in series})
    colours = {s: plt.get_cmap("tab10")(i % 10) for i, s in enumerate(scenarios)}
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    for key in sorted(series):
        kind, backend, scenario, variant = key
        points = sorted(series[key])
        line, marker = BACKEND_STYLE.get(backend, ("--", "x"))
        label = f"{backend} {scenario}" + (f" ({variant})" if variant else "")
        ax.plot([p[0] for p in points], [p[1] for p in points], linestyle=line, marker=marker,
                color=colours[scenario], label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    if kinds == {"world_tick"}:
        ax.set_xlabel("agents (pedestrians + vehicles)")
        ax.set_title("World tick (integrating), median ms per tick against agents")
    else:
        ax.set_xlabel("agents")
        ax.set_title("ORCA step, ms per tick against agents")
    ax.set_ylabel("median ms per tick")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
