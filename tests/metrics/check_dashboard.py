#!/usr/bin/python3
"""Checks deploy/grafana/dashboards/throng.json: valid JSON, unique panel ids, and every
metric name its queries (and template variables) use exists in a real scrape of throngd's
metrics. With --docs, every panel title must also be explained in that file.

With --datasources and --compose it also checks the structure as the Grafana release that
docker-compose.yml pins reads it, since no Grafana runs here: a schemaVersion that release
knows, panel types it ships, grid positions inside its 24 columns without overlaps, every
datasource reference a provisioned uid of the right type, targets with a refId and an
expression, thresholds Grafana accepts, and only template variables that exist.

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
VARIABLE = re.compile(r"\$(?:\{(\w+)(?::\w+)?\}|(\w+))")

# Grafana release line -> the highest dashboard schemaVersion that every release of the line
# reads as current (a higher one is from a newer Grafana, whose fields it may not know).
# 39 since 10.4; 11.5 writes 40 and 11.6 41. Add the line when compose pins a new one.
GRAFANA_SCHEMA = {"10.4": 39, "11.0": 39, "11.1": 39, "11.2": 39, "11.3": 39}
# Below 36 Grafana rewrites datasource references (names to {type, uid}) on load.
MIN_SCHEMA = 36
# Core panel plugins of Grafana 11 (the Angular graph, singlestat and table-old are gone).
PANEL_TYPES = {
    "row", "timeseries", "stat", "gauge", "bargauge", "table", "text", "heatmap", "histogram",
    "piechart", "barchart", "state-timeline", "status-history", "logs", "nodeGraph", "traces",
    "flamegraph", "candlestick", "xychart", "trend", "geomap", "canvas", "dashlist",
    "alertlist", "annolist", "news", "datagrid"}
VARIABLE_TYPES = {"query", "adhoc", "constant", "datasource", "interval", "textbox", "custom"}
BUILTIN_VARIABLES = {"__rate_interval", "__interval", "__interval_ms", "__range", "__range_s",
                     "__range_ms", "__from", "__to", "__dashboard", "__org", "__user",
                     "__name", "__all", "timeFilter", "__timeFilter"}
GRID_COLUMNS = 24


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


def pinned_grafana(compose_path):
    """The major.minor of the grafana/grafana image docker-compose.yml pins."""
    import yaml  # python3-yaml; only this check needs it
    with open(compose_path, encoding="utf-8") as f:
        image = yaml.safe_load(f)["services"]["grafana"]["image"]
    match = re.match(r"grafana/grafana(?:-oss)?:(\d+)\.(\d+)\.\d+", image)
    return (f"{match.group(1)}.{match.group(2)}" if match else None), image


def provisioned_datasources(path):
    import yaml  # python3-yaml
    with open(path, encoding="utf-8") as f:
        return {d["uid"]: d["type"] for d in yaml.safe_load(f)["datasources"]}


def is_int(value, low=None, high=None):
    return (isinstance(value, int) and not isinstance(value, bool)
            and (low is None or value >= low) and (high is None or value <= high))


def check_top(dashboard, max_schema, fail):
    if not (isinstance(dashboard.get("uid"), str) and re.fullmatch(r"[\w-]{1,40}", dashboard["uid"])):
        fail(f"uid {dashboard.get('uid')!r}: want 1-40 letters, digits, - or _")
    if not (isinstance(dashboard.get("title"), str) and dashboard["title"].strip()):
        fail("title: required")
    if dashboard.get("id") is not None:
        fail("id: leave it out; Grafana's database assigns it (uid is the stable name)")
    version = dashboard.get("schemaVersion")
    if not is_int(version, MIN_SCHEMA, max_schema):
        fail(f"schemaVersion {version!r}: want {MIN_SCHEMA}..{max_schema} for the pinned Grafana")
    if dashboard.get("graphTooltip", 0) not in (0, 1, 2):
        fail(f"graphTooltip {dashboard.get('graphTooltip')!r}: want 0, 1 or 2")
    refresh = dashboard.get("refresh", False)
    if not (refresh is False or isinstance(refresh, str)):
        fail(f"refresh {refresh!r}: want an interval string or false")
    time = dashboard.get("time", {})
    if not (isinstance(time.get("from"), str) and isinstance(time.get("to"), str)):
        fail(f"time {time!r}: want from and to strings")
    for key in ("panels", "links"):
        if not isinstance(dashboard.get(key, []), list):
            fail(f"{key}: want a list")
    if not isinstance(dashboard.get("annotations", {}).get("list", []), list):
        fail("annotations.list: want a list")


def check_ref(where, ref, datasources, fail):
    """A datasource reference: {type, uid} of a provisioned datasource (a bare name is the
    pre-schema-36 form, resolved only by migration)."""
    if not isinstance(ref, dict):
        fail(f"{where}: datasource {ref!r} must be an object {{type, uid}}")
    elif datasources is not None and ref.get("uid") not in datasources:
        fail(f"{where}: datasource uid {ref.get('uid')!r} is not provisioned ({sorted(datasources)})")
    elif datasources is not None and ref.get("type") != datasources[ref["uid"]]:
        fail(f"{where}: datasource type {ref.get('type')!r}, provisioned as {datasources[ref['uid']]!r}")


def check_grid(panels, fail):
    """Inside the 24 columns; no two panels on one cell (a collapsed row's panels are
    placed when it opens, so each row's children are checked among themselves)."""
    cells = {}
    for p in panels:
        where = f'panel "{p.get("title")}"'
        g = p.get("gridPos")
        if not isinstance(g, dict) or not all(is_int(g.get(k), 0) for k in "xywh"):
            fail(f"{where}: gridPos {g!r} needs x, y, w, h as non-negative integers")
            continue
        if g["w"] < 1 or g["h"] < 1 or g["x"] + g["w"] > GRID_COLUMNS:
            fail(f"{where}: gridPos {g} must have w, h >= 1 and x + w <= {GRID_COLUMNS}")
            continue
        for x in range(g["x"], g["x"] + g["w"]):
            for y in range(g["y"], g["y"] + g["h"]):
                other = cells.setdefault((x, y), where)
                if other != where:
                    fail(f"{where} overlaps {other} at column {x}, row {y}")
                    break
            else:
                continue
            break
        if p.get("type") == "row" and p.get("collapsed"):
            check_grid(p.get("panels", []), fail)


def check_thresholds(where, thresholds, fail):
    if thresholds.get("mode") not in ("absolute", "percentage"):
        fail(f"{where}: thresholds.mode {thresholds.get('mode')!r}")
    steps = thresholds.get("steps", [])
    if not steps or steps[0].get("value") is not None:
        fail(f"{where}: the first threshold step must have value null (minus infinity)")
    values = [s.get("value") for s in steps[1:]]
    if any(not isinstance(v, (int, float)) for v in values) or values != sorted(values):
        fail(f"{where}: threshold values {values} must be numbers in ascending order")
    if any(not isinstance(s.get("color"), str) for s in steps):
        fail(f"{where}: every threshold step needs a color")


def check_panel(p, datasources, variables, fail):
    where = f'panel "{p.get("title")}"'
    if p.get("type") not in PANEL_TYPES:
        fail(f"{where}: type {p.get('type')!r} is not a core panel of Grafana 11")
    if not isinstance(p.get("title"), str):
        fail(f"{where}: title must be a string")
    if p.get("type") == "row":
        if not isinstance(p.get("collapsed", False), bool):
            fail(f"{where}: collapsed must be true or false")
        if not p.get("collapsed") and p.get("panels"):
            fail(f"{where}: an open row keeps its panels at the top level, not in panels")
        return
    check_ref(where, p.get("datasource"), datasources, fail)
    targets = p.get("targets")
    if not isinstance(targets, list) or not targets:
        fail(f"{where}: has no queries")
        targets = []
    ref_ids = [t.get("refId") for t in targets]
    if len(set(ref_ids)) != len(ref_ids) or not all(isinstance(r, str) and r for r in ref_ids):
        fail(f"{where}: refIds {ref_ids} must be unique non-empty strings")
    for t in targets:
        if "datasource" in t:
            check_ref(f"{where} {t.get('refId')}", t["datasource"], datasources, fail)
        if not (isinstance(t.get("expr"), str) and t["expr"].strip()):
            fail(f"{where} {t.get('refId')}: expr must be a non-empty PromQL string")
        for name in (a or b for a, b in VARIABLE.findall(str(t.get("expr", "")) + str(t.get("legendFormat", "")))):
            if name not in variables and name not in BUILTIN_VARIABLES:
                fail(f"{where} {t.get('refId')}: ${name} is not a dashboard variable")
    fc = p.get("fieldConfig", {})
    if not (isinstance(fc.get("defaults"), dict) and isinstance(fc.get("overrides"), list)):
        fail(f"{where}: fieldConfig needs defaults (object) and overrides (list)")
    elif "thresholds" in fc["defaults"]:
        check_thresholds(where, fc["defaults"]["thresholds"], fail)
    if not isinstance(p.get("options", {}), dict):
        fail(f"{where}: options must be an object")


def check_variables(dashboard, datasources, fail):
    names = []
    for var in dashboard.get("templating", {}).get("list", []):
        where = f'variable "{var.get("name")}"'
        if not (isinstance(var.get("name"), str) and re.fullmatch(r"\w+", var["name"])):
            fail(f"{where}: name must be letters, digits or _")
        if var.get("type") not in VARIABLE_TYPES:
            fail(f"{where}: type {var.get('type')!r}")
        if var.get("type") == "query":
            check_ref(where, var.get("datasource"), datasources, fail)
            query = var.get("query")
            text = query.get("query") if isinstance(query, dict) else query
            if not (isinstance(text, str) and text.strip()):
                fail(f"{where}: query must be a string or {{query: string}}")
            if var.get("refresh", 1) not in (0, 1, 2):
                fail(f"{where}: refresh {var.get('refresh')!r}: want 0, 1 or 2")
        names.append(var.get("name"))
    if len(set(names)) != len(names):
        fail(f"variable names repeat: {names}")
    return set(names)


def check_structure(dashboard, datasources, max_schema, fail):
    check_top(dashboard, max_schema, fail)
    variables = check_variables(dashboard, datasources, fail)
    for p in walk_panels(dashboard.get("panels", [])):
        if not is_int(p.get("id"), 1):
            fail(f'panel "{p.get("title")}": id {p.get("id")!r} must be a positive integer')
        check_panel(p, datasources, variables, fail)
    check_grid(dashboard.get("panels", []), fail)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--dashboard", required=True)
    ap.add_argument("--scrape-command")
    ap.add_argument("--scrape-url")
    ap.add_argument("--docs", help="a Markdown file that must mention every panel title")
    ap.add_argument("--datasources", help="Grafana's datasource provisioning file (YAML)")
    ap.add_argument("--compose", help="docker-compose.yml, for the Grafana version it pins")
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

    grafana = "no pinned Grafana (no --compose)"
    if args.datasources or args.compose:
        max_schema = 10**6
        if args.compose:
            line, grafana = pinned_grafana(args.compose)
            if line not in GRAFANA_SCHEMA:
                errors.append(f"compose pins {grafana}: add its release line to GRAFANA_SCHEMA "
                              "in check_dashboard.py (the schemaVersion it reads)")
            max_schema = GRAFANA_SCHEMA.get(line, max_schema)
        datasources = provisioned_datasources(args.datasources) if args.datasources else None
        check_structure(dashboard, datasources, max_schema, errors.append)

    for e in errors:
        print("FAIL", e)
    print(f"{len(graphs)} panels, {len(used)} metric names used, {len(available)} in the scrape; "
          f"structure checked for {grafana}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
