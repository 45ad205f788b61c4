#!/usr/bin/env python3
"""Compares Throng's cells of two throng-bench-lanes --json runs, cell by cell (course,
lag, set speed, start): the ratio new / old of RMS and max |cte| on-line and of the
settling time off-line, the cells worse by more than 5% and the largest ratios.

    git show c8db807:bench/results/lanes/lanes_60hz.json > /tmp/old.json
    python3 bench/lanes/compare_lanes.py /tmp/old.json bench/results/lanes/lanes_60hz.json
"""
import json
import sys


def key(c):
    return (c["course"], round(c["lag"], 2), round(c["set_speed"], 1), c["start"])


def main(old_path, new_path, shown=8):
    old = {key(c): c["throng"] for c in json.load(open(old_path))["cells"]}
    ratios = []
    for c in json.load(open(new_path))["cells"]:
        if key(c) not in old:
            continue
        before, after = old[key(c)], c["throng"]
        if c["start"] == "on":
            for measure in ("rms", "max"):
                ratios.append((after[measure] / max(before[measure], 1e-9), key(c), measure,
                               before[measure], after[measure]))
        else:
            t0, t1 = before["time_to_line"], after["time_to_line"]
            r = t1 / max(t0, 1e-9) if t1 >= 0 else float("inf")
            ratios.append((r, key(c), "settling s", t0, t1))
    ratios.sort(key=lambda r: r[0], reverse=True)
    cells = len({r[1] for r in ratios})
    print(f"{cells} cells in both; worse by more than 5%: {sum(r[0] > 1.05 for r in ratios)}")
    for r, k, measure, before, after in ratios[:shown]:
        print(f"  {r:.3f}  {k}  {measure} {before:.4f} -> {after:.4f}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
