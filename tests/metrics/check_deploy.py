#!/usr/bin/python3
"""Cross-checks the deployment files, which no single tool validates together:
docker-compose.yml, deploy/prometheus.yml, Grafana provisioning and dashboard, and the
Dockerfiles' package lists against scripts/packages.txt. (docker-compose config and
promtool check each file alone; this checks that they agree.)
"""
import argparse
import json
import os
import re
import sys

import yaml  # python3-yaml


def flag(command, name):
    """The value after `name` in a compose command list."""
    return command[command.index(name) + 1] if name in command else None


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--root", required=True)
    root = ap.parse_args().root
    path = lambda *p: os.path.join(root, *p)
    load = lambda *p: yaml.safe_load(open(path(*p), encoding="utf-8"))
    errors = []
    check = lambda ok, msg: ok or errors.append(msg)

    compose = load("docker-compose.yml")
    services = compose["services"]
    for name in ("throngd", "prometheus", "grafana"):
        check(name in services and not services[name].get("profiles"),
              f"compose: {name} must run without a profile")
    gpu = services.get("throngd-gpu", {})
    check(gpu.get("profiles") == ["gpu"], "compose: throngd-gpu must be in the gpu profile")
    devices = gpu.get("deploy", {}).get("resources", {}).get("reservations", {}).get("devices", [])
    check(any(d.get("driver") == "nvidia" and "gpu" in d.get("capabilities", []) for d in devices),
          "compose: throngd-gpu must reserve an NVIDIA GPU")
    for name, svc in services.items():
        build = svc.get("build")
        if build:
            check(os.path.isfile(path(build.get("context", "."), build["dockerfile"])),
                  f"compose: {name}'s Dockerfile is missing")
        for volume in svc.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith("."):
                check(os.path.exists(path(source)), f"compose: {name} mounts missing {source}")

    # Prometheus scrapes the compose services on the port their --metrics flag serves.
    metrics_port = {n: flag(s.get("command", []), "--metrics").rsplit(":", 1)[1]
                    for n, s in services.items() if "--metrics" in s.get("command", [])}
    targets = [t for job in load("deploy", "prometheus.yml")["scrape_configs"]
               for sc in job.get("static_configs", []) for t in sc["targets"]]
    check(targets, "prometheus.yml: no targets")
    for target in targets:
        host, port = target.rsplit(":", 1)
        check(metrics_port.get(host) == port,
              f"prometheus.yml: {target} is not a compose service's --metrics port")
    check(set(metrics_port) <= {t.rsplit(":", 1)[0] for t in targets},
          "prometheus.yml: a throngd service is not scraped")

    # Grafana: the datasource the dashboard names, the folder the provider reads.
    grafana = services["grafana"]
    mounts = {}  # container path -> host path, for bind mounts ("./host:/container:ro")
    for volume in grafana["volumes"]:
        if volume.startswith("."):
            host, container = volume.split(":")[:2]
            mounts[container] = host
    datasources = load("deploy", "grafana", "provisioning", "datasources", "prometheus.yml")
    uids = {d["uid"] for d in datasources["datasources"]}
    provider = load("deploy", "grafana", "provisioning", "dashboards", "throng.yml")["providers"][0]
    dash_dir = provider["options"]["path"]
    check(dash_dir in mounts, f"grafana: provider path {dash_dir} is not mounted")
    check("/etc/grafana/provisioning" in mounts, "grafana: provisioning is not mounted")
    home = grafana.get("environment", {}).get("GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH", "")
    check(home.startswith(dash_dir + "/") and
          os.path.isfile(path(mounts.get(dash_dir, "."), home[len(dash_dir) + 1:])),
          "grafana: the home dashboard is not in the mounted folder")
    with open(path("deploy", "grafana", "dashboards", "throng.json"), encoding="utf-8") as f:
        used = set(re.findall(r'"uid":\s*"([^"]+)"', f.read())) - {"throng"}
    check(used and used <= uids, f"dashboard: datasource uids {used} are not provisioned ({uids})")

    # The CPU image installs only packages scripts/packages.txt lists (Debian 12 both).
    listed = {l.strip() for l in open(path("scripts", "packages.txt")) if l.strip() and not l.startswith("#")}
    dockerfile = open(path("deploy", "Dockerfile.cpu"), encoding="utf-8").read()
    install = re.search(r"apt-get install[^\n]*\\\n((?:.*\\\n)+)", dockerfile)
    wanted = set(re.findall(r"[a-z0-9][a-z0-9+.-]+", install.group(1).split("&&")[0])) if install else set()
    check(wanted, "Dockerfile.cpu: no apt-get install list found")
    check(wanted <= listed, f"Dockerfile.cpu: {sorted(wanted - listed)} not in scripts/packages.txt")

    for e in errors:
        print("FAIL", e)
    print(f"{len(services)} services, {len(targets)} scrape targets, {len(wanted)} build packages")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
