#!/usr/bin/python3
"""Checks deploy/grafana/dashboards/throng.json: valid JSON, unique panel ids, and every
metric name its queries (and template variables) use exists in a real scrape of throngd's
metrics. With --docs, every panel title must also be explained in that file.

The scrape comes from --scrape-command (a program printing the exposition text, e.g.
throng_metrics_dump) or --scrape-url (a live /metrics).
"""
import argparse
import json
import re
import subprocess
import sys
import urllib.request

METRIC = re.compile(r"\bthrong_[a-zA-Z0-9_]+")


def walk_panels(panels):
    for panel in panels:
        yield panel
        yield from walk_panels(panel.get("panels", []))


def dashboard_queries(dashboard):
    """(where, expression) for every panel target and query variable."""
    for panel in walk_panels(dashboard.get("panels", [])):
        for target in panel.get("targets", []):
            yield f'panel "{panel.get("title")}" {target.get("refId")}', target.get("expr", "")
    for var in dashboard.get("templating", {}).get("list", []):
        if var.get("type") == "query":
            query = var.get("query")
            yield f'variable "{var["name"]}"', query.get("query", "") if isinstance(query, dict) else query


def scrape_names(text):
    """Sample names (the histogram's _bucket/_sum/_count lines included)."""
    names = set()
    for line in text.splitlines():
        if line and not line.startswith("#"):
            names.add(re.split(r"[{\s]", line, maxsplit=1)[0])
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--dashboard", required=True)
    ap.add_argument("--scrape-command")
    ap.add_argument("--scrape-url")
    ap.add_argument("--docs", help="a Markdown file that must mention every panel title")
    args = ap.parse_args()

    with open(args.dashboard, encoding="utf-8") as f:
        dashboard = json.load(f)  # fails the test on invalid JSON
    if args.scrape_command:
        text = subprocess.run([args.scrape_command], check=True, capture_output=True, text=True).stdout
    elif args.scrape_url:
        text = urllib.request.urlopen(args.scrape_url, timeout=10).read().decode()
    else:
        ap.error("give --scrape-command or --scrape-url")
    available = scrape_names(text)

    errors = []
    panels = list(walk_panels(dashboard.get("panels", [])))
    ids = [p.get("id") for p in panels]
    if len(ids) != len(set(ids)):
        errors.append(f"panel ids repeat: {ids}")
    used = set()
    for where, expr in dashboard_queries(dashboard):
        names = set(METRIC.findall(expr))
        if not names:
            errors.append(f"{where}: no throng_ metric in {expr!r}")
        for name in sorted(names - available):
            errors.append(f"{where}: {name} is not in the scrape")
        used |= names
    graphs = [p for p in panels if p.get("type") != "row"]
    for p in graphs:
        if not p.get("targets"):
            errors.append(f'panel "{p.get("title")}" has no queries')
    if args.docs:
        with open(args.docs, encoding="utf-8") as f:
            docs = f.read()
        for p in graphs:
            if p["title"] not in docs:
                errors.append(f'panel "{p["title"]}" is not explained in {args.docs}')

    for e in errors:
        print("FAIL", e)
    print(f"{len(graphs)} panels, {len(used)} metric names used, {len(available)} in the scrape")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
