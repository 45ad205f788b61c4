#!/usr/bin/env python3
"""Prints the docs/VEHICLES.md "Imposed speed" tables from throng-bench-lanes
--speed-control constant|ramp --json output: per course and per tick rate and lag, the
on-line RMS ratio against the better baseline and the off-line settling comparison, and the
random roads at 30, 60 and 90 km/h.

    python3 bench/lanes/table_imposed.py bench/results/lanes/imposed_constant.json
"""
import json
import sys

BASELINES = ("pure_pursuit", "stanley")


def rms(r):
    return r["rms"] if r["completed"] else 1e9


def peak(r):
    return r["max"] if r["completed"] else 1e9


def settle(r):
    return r["time_to_line"] if r["completed"] and r["time_to_line"] >= 0 else 1e9


def ratio(c):
    return rms(c["throng"]) / min(rms(c[w]) for w in BASELINES)


def max_below(c):
    return peak(c["throng"]) < min(peak(c[w]) for w in BASELINES)


def sooner(c):
    return settle(c["throng"]) < min(settle(c[w]) for w in BASELINES)


def cell_name(c):
    return f"{c['rate_hz']:.0f} Hz, lag {c['lag']:.1f}, {c['set_speed'] * 3.6:.0f} km/h"


def table(cells, key, label):
    groups = list(dict.fromkeys(key(c) for c in cells))
    print(f"| {label} | on-line cells | RMS <= 0.75x | max below both | worst RMS ratio (cell) | "
          "off-line cells | settled sooner than both |")
    print("|---|---|---|---|---|---|---|")
    for g in groups:
        on = [c for c in cells if key(c) == g and c["start"] == "on"]
        off = [c for c in cells if key(c) == g and c["start"] == "off"]
        worst = max(on, key=ratio) if on else None
        worst_text = f"{ratio(worst):.2f}x ({cell_name(worst)})" if worst else "-"
        print(f"| {g} | {len(on)} | {sum(ratio(c) <= 0.75 for c in on)} | "
              f"{sum(max_below(c) for c in on)} | {worst_text} | {len(off)} | "
              f"{sum(sooner(c) for c in off)} |")


def main(path):
    cells = json.load(open(path))["cells"]
    print(f"speed control: {cells[0]['speed_control']}\n")
    table(cells, lambda c: c["course"], "course")
    print()
    table(cells, lambda c: f"{c['rate_hz']:.0f} Hz, lag {c['lag']:.1f}", "tick, lag")
    print()
    # The table: random roads, on-line, RMS / max |cte| in m (mean over the roads).
    roads = [c for c in cells if c["course"].startswith("random_") and c["start"] == "on"]
    print("| tick, lag | km/h | pure pursuit RMS / max m | Stanley | Throng | Throng / better RMS |")
    print("|---|---|---|---|---|---|")
    for rate, lag in dict.fromkeys((c["rate_hz"], c["lag"]) for c in roads):
        for speed in sorted({c["set_speed"] for c in roads}):
            mine = [c for c in roads if (c["rate_hz"], c["lag"], c["set_speed"]) == (rate, lag, speed)]

            def mean(who, f):
                return sum(f(c[who]) for c in mine) / len(mine)

            cols = [f"{mean(w, rms):.3f} / {mean(w, peak):.3f}"
                    for w in ("pure_pursuit", "stanley", "throng")]
            worst = max(ratio(c) for c in mine)
            print(f"| {rate:.0f} Hz, {lag:.1f} s | {speed * 3.6:.0f} | {cols[0]} | {cols[1]} | "
                  f"{cols[2]} | {worst:.2f}x (worst road) |")


if __name__ == "__main__":
    main(sys.argv[1])
