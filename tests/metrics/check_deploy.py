#!/usr/bin/python3
"""Cross-checks the deployment files, which no single tool validates together:
docker-compose.yml, deploy/prometheus/prometheus.yml, Grafana provisioning and dashboard,
the Dockerfiles and .dockerignore, and the Dockerfiles' package lists against
scripts/packages.txt. (docker-compose config and promtool check each file alone; this
checks that they agree, and that the defaults are the safe ones of docs/OPERATIONS.md.)
"""
import argparse
import json
import os
import re
import sys

import yaml  # python3-yaml

# A published port binds to loopback, or to THRONG_BIND (default loopback) where the
# service has a login of its own (throngd's token, Grafana's password).
LOOPBACK = re.compile(r"127\.0\.0\.1:(\d+):(\d+)$")
BIND = re.compile(r"(?:\$\{THRONG_BIND:-127\.0\.0\.1\}|127\.0\.0\.1):(\d+):(\d+)$")
DOCKER_STOP_TIMEOUT_S = 10  # `docker stop` without -t
BACKSTOP_MARGIN_S = 5  # throngd exits by grace + 3 s (its backstop), plus slack
DEFAULT_GRACE_S = 30.0  # throngd's --shutdown-grace default
# Folders CMakeLists.txt adds that a server-only image build (tests and benchmarks off)
# does not read; the Dockerfiles copy every other one.
NOT_IN_IMAGE = {"tests", "bench"}


def flag(command, name, default=None):
    """The value after `name` in a command list."""
    return command[command.index(name) + 1] if name in command else default


def seconds(duration):
    """Compose durations: "40s", "1m30s", "1.5s"."""
    units = {"h": 3600, "m": 60, "s": 1, "ms": 1e-3, "us": 1e-6}
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|us|h|m|s)", str(duration))
    return sum(float(n) * units[u] for n, u in parts) if parts else None


def dockerfile_stages(text):
    """[[(INSTRUCTION, arguments)]] per FROM, continuation lines joined, comments dropped."""
    logical, current = [], ""
    for line in text.splitlines():
        if line.lstrip().startswith("#") and not current:
            continue
        current += line.rstrip("\\").strip() + " " if line.endswith("\\") else line.strip()
        if not line.endswith("\\"):
            if current:
                logical.append(current)
            current = ""
    stages = []
    for inst in logical:
        word, _, rest = inst.partition(" ")
        if word.upper() == "FROM":
            stages.append([])
        if stages:
            stages[-1].append((word.upper(), rest.strip()))
    return stages


def check_compose_basics(services, path, check):
    for name in ("throngd", "prometheus", "grafana"):
        check(name in services and not services[name].get("profiles"),
              f"compose: {name} must run without a profile")
    gpu = services.get("throngd-gpu", {})
    check(gpu.get("profiles") == ["gpu"], "compose: throngd-gpu must be in the gpu profile")
    devices = gpu.get("deploy", {}).get("resources", {}).get("reservations", {}).get("devices", [])
    check(any(d.get("driver") == "nvidia" and "gpu" in d.get("capabilities", []) for d in devices),
          "compose: throngd-gpu must reserve an NVIDIA GPU")
    check("CUDA_ARCHS" in (gpu.get("build", {}).get("args") or {}),
          "compose: throngd-gpu's build must pass CUDA_ARCHS")
    for name, svc in services.items():
        build = svc.get("build")
        if build:
            check(os.path.isfile(path(build.get("context", "."), build["dockerfile"])),
                  f"compose: {name}'s Dockerfile is missing")
        for volume in svc.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith("."):
                check(os.path.exists(path(source)), f"compose: {name} mounts missing {source}")


def check_ports(services, metrics_port, check):
    """Loopback unless THRONG_BIND opens it; no-login ports (metrics, Prometheus) always."""
    for name, svc in services.items():
        for port in svc.get("ports", []):
            port = str(port)
            no_login = name == "prometheus" or (BIND.match(port) and
                                                BIND.match(port).group(2) == metrics_port.get(name))
            pattern = LOOPBACK if no_login else BIND
            check(pattern.match(port),
                  f"compose: {name} publishes {port}; want "
                  + ("127.0.0.1:HOST:CONTAINER (it has no login)" if no_login else
                     "${THRONG_BIND:-127.0.0.1}:HOST:CONTAINER or 127.0.0.1:HOST:CONTAINER"))


def check_throngd_services(compose, services, check):
    secrets = compose.get("secrets", {})
    for name, svc in services.items():
        command = svc.get("command", [])
        if "--listen" not in command:
            continue
        listen_port = flag(command, "--listen").rsplit(":", 1)[1]
        token = flag(command, "--token-file")
        check(token and token.startswith("/run/secrets/")
              and token[len("/run/secrets/"):] in svc.get("secrets", [])
              and token[len("/run/secrets/"):] in secrets,
              f"compose: {name} must read --token-file from one of its compose secrets")
        check("--token" not in command, f"compose: {name} must not put a token on its command line")
        test = svc.get("healthcheck", {}).get("test", [])
        check(flag(test, "--health-check") == f"127.0.0.1:{listen_port}",
              f"compose: {name}'s healthcheck must be --health-check 127.0.0.1:{listen_port}")
        grace = float(flag(command, "--shutdown-grace", DEFAULT_GRACE_S))
        stop = seconds(svc.get("stop_grace_period", "10s"))
        check(stop is not None and stop >= grace + BACKSTOP_MARGIN_S,
              f"compose: {name}'s stop_grace_period {svc.get('stop_grace_period')} must be at "
              f"least --shutdown-grace {grace:g} + {BACKSTOP_MARGIN_S} s")
        check(svc.get("read_only") is True and svc.get("cap_drop") == ["ALL"],
              f"compose: {name} must run read-only with no capabilities")


def check_dockerfile(relpath, text, cmake_dirs, check):
    stages = dockerfile_stages(text)
    check(len(stages) >= 2, f"{relpath}: want a build stage and a runtime stage")
    if not stages:
        return
    # The build stage copies folders one by one (so that docs and tests stay out of the
    # compile's cache key); a folder CMakeLists.txt adds must be among them.
    copied = {os.path.normpath(src).split(os.sep)[0] for w, rest in stages[0] if w == "COPY"
              for src in rest.split()[:-1] if not src.startswith("--")}
    if "." not in copied:
        for folder in sorted(cmake_dirs - NOT_IN_IMAGE - copied):
            check(False, f"{relpath}: CMakeLists.txt adds {folder}/, which the build stage does "
                         "not COPY (or add it to NOT_IN_IMAGE in check_deploy.py)")
        check("CMakeLists.txt" in copied, f"{relpath}: the build stage must COPY CMakeLists.txt")
    runtime = stages[-1]
    get = lambda word: [rest for w, rest in runtime if w == word]
    for run in get("RUN"):
        if "apt-get install" in run:
            check("apt-get clean" in run and "/var/lib/apt/lists" in run,
                  f"{relpath}: the runtime stage's apt-get install must clean /var/cache/apt "
                  "(apt-get clean) and /var/lib/apt/lists in the same RUN")
    check(get("USER") and get("USER")[-1] not in ("root", "0"), f"{relpath}: must run as non-root")
    cmd = json.loads(get("CMD")[-1]) if get("CMD") else []
    listen_port = (flag(cmd, "--listen") or ":50051").rsplit(":", 1)[1]
    grace = float(flag(cmd, "--shutdown-grace", DEFAULT_GRACE_S))
    check(grace + BACKSTOP_MARGIN_S <= DOCKER_STOP_TIMEOUT_S,
          f"{relpath}: CMD's --shutdown-grace {grace:g} + {BACKSTOP_MARGIN_S} s exceeds "
          f"docker stop's {DOCKER_STOP_TIMEOUT_S} s")
    health = get("HEALTHCHECK")
    probe = json.loads(health[-1][health[-1].index("CMD") + 3:]) if health and "CMD" in health[-1] else []
    check(flag(probe, "--health-check") == f"127.0.0.1:{listen_port}",
          f"{relpath}: HEALTHCHECK must run --health-check 127.0.0.1:{listen_port}")


def check_prometheus(services, metrics_port, path, check):
    """Mounted as a folder; static targets for services that always run, DNS discovery
    for those in a profile (no target at all while they do not run)."""
    prom = services["prometheus"]
    config = next((a.split("=", 1)[1] for a in prom.get("command", [])
                   if a.startswith("--config.file=")), "/etc/prometheus/prometheus.yml")
    folder = os.path.dirname(config)
    mount = next((v.split(":")[0] for v in prom.get("volumes", []) if v.split(":")[1] == folder), None)
    check(mount and os.path.isdir(path(mount)) and os.path.isfile(path(mount, os.path.basename(config))),
          f"compose: prometheus must mount a folder holding its config at {folder}")
    if not (mount and os.path.isfile(path(mount, os.path.basename(config)))):
        return 0
    with open(path(mount, os.path.basename(config)), encoding="utf-8") as f:
        jobs = yaml.safe_load(f)["scrape_configs"]
    static = [t for job in jobs for sc in job.get("static_configs", []) for t in sc["targets"]]
    dns = [(n, str(sc.get("port"))) for job in jobs for sc in job.get("dns_sd_configs", [])
           for n in sc["names"]]
    scraped = {}
    for target in static:
        host, port = target.rsplit(":", 1)
        scraped[host] = port
        check(host in services and not services[host].get("profiles"),
              f"prometheus.yml: static target {target} must be a service without a profile "
              "(one in a profile would be down whenever the profile is off)")
    for host, port in dns:
        scraped[host] = port
        check(host in services and services[host].get("profiles"),
              f"prometheus.yml: DNS-discovered {host} should be a service in a profile")
    for name, port in metrics_port.items():
        check(scraped.get(name) == port,
              f"prometheus.yml: {name}'s --metrics port {port} is not scraped ({scraped.get(name)})")
    return len(static) + len(dns)


def check_grafana(services, compose, path, load, check):
    grafana = services["grafana"]
    env = grafana.get("environment", {})
    check("GF_SECURITY_ADMIN_PASSWORD" not in env,
          "grafana: no admin password in the compose file (use GF_SECURITY_ADMIN_PASSWORD__FILE)")
    secret = env.get("GF_SECURITY_ADMIN_PASSWORD__FILE", "")
    name = secret[len("/run/secrets/"):] if secret.startswith("/run/secrets/") else None
    check(name and name in grafana.get("secrets", []) and name in compose.get("secrets", {}),
          "grafana: GF_SECURITY_ADMIN_PASSWORD__FILE must name one of its compose secrets")
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
    home = env.get("GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH", "")
    check(home.startswith(dash_dir + "/") and
          os.path.isfile(path(mounts.get(dash_dir, "."), home[len(dash_dir) + 1:])),
          "grafana: the home dashboard is not in the mounted folder")
    with open(path("deploy", "grafana", "dashboards", "throng.json"), encoding="utf-8") as f:
        used = set(re.findall(r'"uid":\s*"([^"]+)"', f.read())) - {"throng"}
    check(used and used <= uids, f"dashboard: datasource uids {used} are not provisioned ({uids})")


def check_secrets(compose, path, check):
    """Secret files live in deploy/secrets/, which git and the build context both ignore,
    and deploy/make_secrets.sh makes each one."""
    maker = open(path("deploy", "make_secrets.sh"), encoding="utf-8").read()
    for name, secret in compose.get("secrets", {}).items():
        check(os.path.normpath(secret.get("file", "")).startswith(os.path.join("deploy", "secrets") + os.sep),
              f"compose: secret {name} must be a file under deploy/secrets/")
        check(name in maker, f"deploy/make_secrets.sh does not make {name}")
    ignored = open(path("deploy", "secrets", ".gitignore"), encoding="utf-8").read().split()
    check("*" in ignored, "deploy/secrets/.gitignore must ignore everything but itself")


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
    metrics_port = {n: flag(s.get("command", []), "--metrics").rsplit(":", 1)[1]
                    for n, s in services.items() if "--metrics" in s.get("command", [])}
    check_compose_basics(services, path, check)
    check_ports(services, metrics_port, check)
    check_throngd_services(compose, services, check)
    check_secrets(compose, path, check)
    targets = check_prometheus(services, metrics_port, path, check)
    check_grafana(services, compose, path, load, check)
    with open(path("CMakeLists.txt"), encoding="utf-8") as f:
        cmake_dirs = {d.split("/")[0] for d in re.findall(r"add_subdirectory\(\s*([\w/.-]+)", f.read())}
    for relpath in ("deploy/Dockerfile.cpu", "deploy/Dockerfile.cuda"):
        with open(path(relpath), encoding="utf-8") as f:
            check_dockerfile(relpath, f.read(), cmake_dirs, check)

    ignore = open(path(".dockerignore"), encoding="utf-8").read().split()
    for entry in ("build*/", "out/", ".git/", "deploy/secrets/"):
        check(entry in ignore, f".dockerignore must list {entry}")

    # The documented gpu command rebuilds: without --build a checkout runs a stale image.
    for doc in ("README.md", os.path.join("docs", "OPERATIONS.md")):
        for line in open(path(doc), encoding="utf-8"):
            if "--profile gpu up" in line:
                check("--build" in line, f"{doc}: `{line.strip()}` lacks --build")

    # The CPU image installs only packages scripts/packages.txt lists (Debian 12 both).
    listed = {l.strip() for l in open(path("scripts", "packages.txt")) if l.strip() and not l.startswith("#")}
    dockerfile = open(path("deploy", "Dockerfile.cpu"), encoding="utf-8").read()
    install = re.search(r"apt-get install[^\n]*\\\n((?:.*\\\n)+)", dockerfile)
    wanted = set(re.findall(r"[a-z0-9][a-z0-9+.-]+", install.group(1).split("&&")[0])) if install else set()
    check(wanted, "Dockerfile.cpu: no apt-get install list found")
    check(wanted <= listed, f"Dockerfile.cpu: {sorted(wanted - listed)} not in scripts/packages.txt")

    for e in errors:
        print("FAIL", e)
    print(f"{len(services)} services, {targets} scrape targets, {len(wanted)} build packages")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
