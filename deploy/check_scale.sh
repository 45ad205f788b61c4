#!/usr/bin/env bash
# docker compose's `scale` profile for real (docs/OPERATIONS.md, "Many replicas"): builds
# throng/throngd:cpu and throng/proxy:nginx, starts throngd-r1..3 and throng-proxy (not
# Prometheus or Grafana, whose images come from a registry), then through the proxy on
# 127.0.0.1:50053 with the token: 12 named worlds created, stepped, advanced 20 ticks and
# read back, one exported, deleted and imported; a call without the token refused; the
# worlds spread over more than one replica (their logs); every container stops with exit
# code 0. Needs a Docker engine and debian:12 / debian:12-slim images (deploy/check_image.sh
# makes them without a registry), deploy/make_secrets.sh run once, and a build of the
# Python client (default build/). Not part of `make test` or CI.
#
#   deploy/check_scale.sh [--build-dir build]
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
[ "${1:-}" = --build-dir ] && build=$2
compose() { docker-compose --profile scale "$@"; }
services=(throngd-r1 throngd-r2 throngd-r3 throng-proxy)
trap 'compose down >/dev/null 2>&1 || true' EXIT

[ -f deploy/secrets/throngd_token ] || { echo "check_scale: run deploy/make_secrets.sh first"; exit 1; }
compose build throngd throng-proxy > /tmp/check_scale_build.log 2>&1 ||
    { tail -30 /tmp/check_scale_build.log; exit 1; }
compose up -d "${services[@]}"
PYTHONPATH=clients/python:$build/clients/python/gen \
THRONG_SCENARIO_TOOL=$build/clients/cpp/throng-scenario /usr/bin/python3 - <<'PY'
import throng
token = open("deploy/secrets/throngd_token").read().strip()
scene = throng.make_scenario("random", 40, seed=1)
with throng.Client("127.0.0.1:50053", token=token, timeout=30) as c:
    c.wait_ready(30)
    for k in range(12):
        w = f"scale-check-{k}"
        c.create_world(scene, world_id=w)
        c.step(w, scene.tick, scene.dt, scene.agents, integrate=True)
        _, totals = c.advance(w, 20, scene.dt)
        assert totals.ticks == 21, totals
        assert c.get_world(w).info.last_tick == scene.tick + 20
    exported = c.export_world("scale-check-0")
    c.delete_world("scale-check-0")
    assert c.import_world(exported).last_tick == scene.tick + 20
try:
    throng.Client("127.0.0.1:50053", timeout=5).list_worlds()
    raise SystemExit("check_scale: a call without the token went through")
except throng.Unauthenticated:
    pass
print("check_scale: 12 worlds created, stepped, advanced, exported and imported through the proxy")
PY
used=0
for r in throngd-r1 throngd-r2 throngd-r3; do
  n=$(compose logs "$r" 2>/dev/null | grep -c 'CreateWorld: scale-check' || true)
  echo "check_scale: $r created $n worlds"
  [ "$n" -gt 0 ] && used=$((used + 1))
done
[ "$used" -ge 2 ] || { echo "check_scale: the worlds did not spread"; exit 1; }
compose stop -t 40 "${services[@]}" >/dev/null 2>&1
codes=$(docker inspect -f '{{.State.ExitCode}}' $(compose ps -q "${services[@]}") | sort -u)
[ "$codes" = 0 ] || { echo "check_scale: exit codes $codes"; exit 1; }
echo "check_scale: passed; every container stopped with exit code 0"
