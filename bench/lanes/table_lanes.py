#!/usr/bin/env python3
"""Prints the docs/VEHICLES.md tables from throng-bench-lanes --json output: the on-line
rows (per course and lag, over the set speeds), the off-line worst cells, and the largest
lateral acceleration per course.

    python3 bench/lanes/table_lanes.py bench/results/lanes/lanes_60hz.json
"""
import json
import sys

WHO = ("throng", "pure_pursuit", "stanley")


def span(values, scale=1.0, digits=1):
    lo, hi = min(values) * scale, max(values) * scale
    return f"{lo:.{digits}f}-{hi:.{digits}f}"


def rows(cells, start):
    keys = list(dict.fromkeys((c["course"], c["lag"]) for c in cells if c["start"] == start))
    for course, lag in keys:
        mine = [c for c in cells if c["course"] == course and c["lag"] == lag and c["start"] == start]
        yield course, lag, mine


def main(path):
    cells = json.load(open(path))["cells"]
    print("| course (tuning?) | lag s | set speeds (driven) | Throng RMS / max mm | "
          "pure pursuit RMS / max mm | Stanley RMS / max mm | worst RMS ratio |")
    print("|---|---|---|---|---|---|---|")
    for course, lag, mine in rows(cells, "on"):
        tuning = "yes" if mine[0]["tuning"] else "held out"
        sets = [c["set_speed"] for c in mine]
        driven = [c["throng"]["mean_speed"] for c in mine]
        parts = []
        for who in WHO:
            ok = [c[who] for c in mine if c[who]["completed"]]
            if not ok:
                parts.append("lost")
                continue
            lost = len(mine) - len(ok)
            text = f"{span([r['rms'] for r in ok], 1e3)} / {span([r['max'] for r in ok], 1e3)}"
            parts.append(text + (f" ({lost} lost)" if lost else ""))
        ratios = []
        for c in mine:
            best = min(c[w]["rms"] if c[w]["completed"] else 1e9 for w in WHO[1:])
            ratios.append(c["throng"]["rms"] / best if c["throng"]["completed"] else 1e9)
        print(f"| {course} ({tuning}) | {lag:.1f} | {min(sets):.0f}-{max(sets):.0f} "
              f"({span(driven)}) | {parts[0]} | {parts[1]} | {parts[2]} | {max(ratios):.2f}x |")

    print()
    print("| course | lag s | Throng s / m | pure pursuit s / m | Stanley s / m |")
    print("|---|---|---|---|---|")
    for course, lag, mine in rows(cells, "off"):
        # The cell where Throng's lead over the better baseline's settling time is smallest.
        def margin(c):
            best = min(c[w]["time_to_line"] if c[w]["time_to_line"] >= 0 else 1e9 for w in WHO[1:])
            return best - c["throng"]["time_to_line"]
        c = min(mine, key=margin)
        cols = [f"{c[w]['time_to_line']:.2f} / {c[w]['overshoot']:.3f}" for w in WHO]
        print(f"| {course} ({c['set_speed']:.0f} m/s) | {lag:.1f} | {cols[0]} | {cols[1]} | {cols[2]} |")

    print()
    print("| course | lag s | Throng max lateral m/s^2 | pure pursuit | Stanley | Throng mean speed m/s |")
    print("|---|---|---|---|---|---|")
    for course, lag, mine in rows(cells, "on"):
        lat = [max(c[w]["max_lateral_accel"] for c in mine if c[w]["completed"]) for w in WHO]
        print(f"| {course} | {lag:.1f} | {lat[0]:.2f} | {lat[1]:.2f} | {lat[2]:.2f} | "
              f"{span([c['throng']['mean_speed'] for c in mine], digits=2)} |")


if __name__ == "__main__":
    main(sys.argv[1])
