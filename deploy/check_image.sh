#!/usr/bin/env bash
# Builds the CPU image and checks it as an operator would meet it (issue 20): the build,
# the apt cache, the health check, /metrics under promtool, non-root, loopback-only ports,
# the bearer token, one Python-client town run, and `docker stop` during an Advance (within
# the grace, and past it). Not part of CI: it builds an image (minutes). Prints one line per
# check and ends with `check_image: N passed, M failed`; exits 0 only when nothing failed.
#
#   deploy/check_image.sh [--build-dir build] [--tag throng/throngd:cpu-check] [--no-build]
#     --build-dir  the host build with the Python client's stubs and throng-scenario (the
#                  client checks are skipped without them)
#     --no-build   check the image already tagged --tag
#
# Needs Docker. With no registry in reach, it makes the debian:12 base itself (root,
# debootstrap, the Debian mirror of this host's apt sources) and builds both stages on it.
# Everything it starts runs on 127.0.0.1 and is removed on exit; the image is kept.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build
tag=throng/throngd:cpu-check
do_build=1
while [ $# -gt 0 ]; do
  case $1 in
    --build-dir) build=$(cd "$2" && pwd); shift ;;
    --tag) tag=$2; shift ;;
    --no-build) do_build=0 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "check_image: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

python=/usr/bin/python3  # Debian's, with python3-grpcio (as scripts/demo)
work=$(mktemp -d /tmp/check_image.XXXXXX)
name=throng-check-$$
passed=0 failed=0 skipped=0
summary=()
record() {  # record PASS|FAIL|SKIP "name (detail)"
  summary+=("$1 $2")
  echo "$1 $2"
  case $1 in PASS) passed=$((passed + 1)) ;; FAIL) failed=$((failed + 1)) ;; *) skipped=$((skipped + 1)) ;; esac
}
check() {  # check NAME DETAIL COMMAND...: PASS when COMMAND succeeds
  local what=$1 detail=$2; shift 2
  if "$@"; then record PASS "$what ($detail)"; else record FAIL "$what ($detail)"; fi
}
finish() {
  docker rm -f "$name" >/dev/null 2>&1
  rm -rf "$work"
  echo
  echo "summary ($(date -u +%Y-%m-%dT%H:%MZ), image $tag):"
  printf '  %s\n' "${summary[@]}"
  echo "check_image: $passed passed, $failed failed$([ "$skipped" = 0 ] || echo ", $skipped skipped")"
}
trap finish EXIT
trap 'exit 130' INT TERM

docker info >/dev/null 2>&1 || { record FAIL "docker (no engine answers: start dockerd)"; exit 1; }

# --- base image --------------------------------------------------------------------------
# debootstrap's minbase is Debian 12 as the registry's debian:12 is; without a registry it
# is the base of both stages (debian:12-slim would be the runtime's otherwise).
mirror() {
  local m
  m=$(awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null)
  [ -n "$m" ] || m=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; exit } }' \
                       /etc/apt/sources.list 2>/dev/null)
  echo "${m:-http://deb.debian.org/debian}"
}
build_args=()
if [ "$do_build" = 1 ]; then
  if docker image inspect debian:12 >/dev/null 2>&1; then
    record PASS "base image (debian:12 present)"
  elif [ "$(id -u)" != 0 ] || ! command -v debootstrap >/dev/null; then
    record FAIL "base image (no debian:12, and making one needs root and debootstrap)"
    exit 1
  else
    echo "check_image: making debian:12 with debootstrap from $(mirror) (a few minutes)"
    # Without its downloaded .debs and package lists (80 MB): the registry's image has
    # neither, and a later layer's apt-get clean only hides what a base layer holds.
    if timeout 1200 debootstrap --variant=minbase bookworm "$work/rootfs" "$(mirror)" \
         >"$work/debootstrap.log" 2>&1 \
       && rm -rf "$work"/rootfs/var/cache/apt/archives/*.deb "$work"/rootfs/var/cache/apt/*.bin \
                 "$work"/rootfs/var/lib/apt/lists/* \
       && tar -C "$work/rootfs" -c . | docker import - debian:12 >/dev/null; then
      record PASS "base image (debian:12 made with debootstrap from $(mirror))"
    else
      tail -n 20 "$work/debootstrap.log" >&2
      record FAIL "base image (debootstrap or docker import failed)"
      exit 1
    fi
    rm -rf "$work/rootfs"
  fi
  docker image inspect debian:12-slim >/dev/null 2>&1 || build_args=(--build-arg RUNTIME_BASE=debian:12)

  # --- build -----------------------------------------------------------------------------
  image_build() { timeout 3600 docker build -f "$root/deploy/Dockerfile.cpu" -t "$tag" "${build_args[@]}" "$root"; }
  start=$SECONDS
  image_build >"$work/build.log" 2>&1
  rc=$?
  if [ "$rc" != 0 ]; then
    tail -n 30 "$work/build.log" >&2
    record FAIL "docker build (exit $rc after $((SECONDS - start)) s; the log's end is above)"
    exit 1
  fi
  record PASS "docker build ($((SECONDS - start)) s${build_args:+, runtime stage on debian:12})"
fi

docker image inspect "$tag" >/dev/null 2>&1 || { record FAIL "image ($tag does not exist)"; exit 1; }
# What `make demo` writes (out/) and the secrets must not reach the build context
# (.dockerignore): out/ would invalidate the compile layer, secrets would sit in a layer.
# Asked of the context itself, so that someone editing sources meanwhile cannot upset it.
context_lacks() {
  local marker=.check_image.$$ id rc
  mkdir -p "$root/out" "$root/deploy/secrets"
  date >"$root/out/$marker"; date >"$root/deploy/secrets/$marker"
  id=$(printf 'FROM %s\nCOPY . /ctx\nRUN test ! -e /ctx/out/%s && test ! -e /ctx/deploy/secrets/%s\n' \
         "$tag" "$marker" "$marker" | timeout 300 docker build -q -f - "$root" 2>"$work/context.log")
  rc=$?
  rm -f "$root/out/$marker" "$root/deploy/secrets/$marker"
  [ -n "$id" ] && docker rmi "$id" >/dev/null 2>&1
  return "$rc"
}
check "out/ and secrets outside the build context" ".dockerignore" context_lacks
# Measured in the image as it runs, so it covers the runtime stage's own apt-get; the
# base's share is in the detail (a base layer keeps what a later layer deletes).
size_mb=$(( $(docker image inspect -f '{{.Size}}' "$tag") / 1000000 ))
runtime_base=debian:12-slim
docker image inspect "$runtime_base" >/dev/null 2>&1 || runtime_base=debian:12
base=$(docker image inspect -f '{{.Size}}' "$runtime_base" 2>/dev/null) \
  && base=", on $runtime_base of $((base / 1000000)) MB"
apt_kb=$(docker run --rm --entrypoint /bin/sh "$tag" -c 'du -sk /var/cache/apt /var/lib/apt/lists' \
         2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
check "apt cache emptied" "$size_mb MB image${base}; ${apt_kb} KB in /var/cache/apt and lists" \
  test "$apt_kb" -lt 1024
health=$(docker image inspect -f '{{json .Config.Healthcheck.Test}}' "$tag")
check "HEALTHCHECK in the image" "$health" grep -q -- '--health-check' <<<"$health"
cmd=$(docker image inspect -f '{{json .Config.Cmd}}' "$tag")
check "default grace fits docker stop's 10 s" "CMD $cmd" grep -q -- '"--shutdown-grace","5"' <<<"$cmd"

# --- run it as compose does: read-only, no capabilities, the token as a mounted file ------
"$root/deploy/make_secrets.sh" "$work/secrets" >/dev/null
token=$work/secrets/throngd_token
grace=5
run_container() {
  docker rm -f "$name" >/dev/null 2>&1
  docker run -d --name "$name" --read-only --cap-drop ALL --security-opt no-new-privileges:true \
    -p 127.0.0.1::50051 -p 127.0.0.1::9464 -v "$token:/run/secrets/throngd_token:ro" "$tag" \
    --listen 0.0.0.0:50051 --metrics 0.0.0.0:9464 --backend cpu \
    --token-file /run/secrets/throngd_token --shutdown-grace "$grace" >/dev/null || return 1
  grpc_addr=$(docker port "$name" 50051/tcp | head -n 1)
  metrics_addr=$(docker port "$name" 9464/tcp | head -n 1)
  # Serving: the probe inside the container answers 0 (the image's HEALTHCHECK, at its
  # first interval, then says "healthy" too; waited for below, once).
  local _
  for _ in $(seq 120); do
    docker exec "$name" /usr/local/bin/throngd --health-check 127.0.0.1:50051 >/dev/null 2>&1 && return 0
    [ "$(docker inspect -f '{{.State.Running}}' "$name" 2>/dev/null)" = true ] || break
    sleep 0.5
  done
  docker logs "$name" 2>&1 | tail -n 20 >&2
  return 1
}
start=$SECONDS
if ! run_container; then
  record FAIL "container starts and serves (see its log above)"
  exit 1
fi
record PASS "container starts and serves (probe SERVING after $((SECONDS - start)) s, read-only, no capabilities)"
probe=$(docker exec "$name" /usr/local/bin/throngd --health-check 127.0.0.1:50051 2>&1)
check "health probe" "$probe" grep -q ': SERVING$' <<<"$probe"
status=starting
for _ in $(seq 60); do
  status=$(docker inspect -f '{{.State.Health.Status}}' "$name")
  [ "$status" = starting ] || break
  sleep 1
done
check "docker health status" "$status" test "$status" = healthy
loopback() { [[ $grpc_addr == 127.0.0.1:* && $metrics_addr == 127.0.0.1:* ]]; }
check "ports on loopback only" "gRPC $grpc_addr, metrics $metrics_addr" loopback
# The server process itself (PID 1 of the container), not just the image's USER line.
uid=$(docker exec "$name" awk '/^Uid:/ { print $2 }' /proc/1/status 2>/dev/null)
check "runs as non-root" "uid ${uid:-unknown}, user $(docker image inspect -f '{{.Config.User}}' "$tag")" \
  test -n "$uid" -a "$uid" != 0

if command -v promtool >/dev/null; then
  "$python" -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' \
    "http://$metrics_addr/metrics" >"$work/metrics.txt" 2>"$work/metrics.err"
  lint=$(promtool check metrics <"$work/metrics.txt" 2>&1)
  rc=$?
  samples=$(grep -c '^throng_' "$work/metrics.txt")
  check "promtool check metrics" "$samples throng_ samples${lint:+; $lint}" \
    test "$rc" = 0 -a -z "$lint" -a "$samples" -gt 0
else
  record SKIP "promtool check metrics (no promtool on this host)"
fi

# --- client calls: the token, a town run, docker stop during an Advance -------------------
if [ -e "$build/clients/python/gen/throng/v1/simulation_pb2.py" ] && [ -x "$build/clients/cpp/throng-scenario" ]; then
  export PYTHONPATH=$root/clients/python:$build/clients/python/gen${PYTHONPATH:+:$PYTHONPATH}
  export THRONG_SCENARIO_TOOL=$build/clients/cpp/throng-scenario OMP_WAIT_POLICY=PASSIVE
  calls() {  # the helper's PASS/FAIL lines become checks here; a helper that fails
    local line rc before=$((passed + failed))  # otherwise is a failed check too
    timeout 180 "$python" "$root/deploy/check_image_calls.py" "$@" --server "$grpc_addr" \
      --token-file "$token" --grace "$grace" >"$work/calls.out" 2>&1
    rc=$?
    while IFS= read -r line; do
      case $line in PASS\ *|FAIL\ *) record "${line%% *}" "${line#* }" ;; *) echo "  $line" ;; esac
    done <"$work/calls.out"
    if [ "$rc" != 0 ] || [ $((passed + failed)) = "$before" ]; then
      record FAIL "check_image_calls.py $1 (exit $rc; its output is above)"
    fi
  }
  calls auth
  run=$(THRONG_TOKEN=$(head -n 1 "$token") timeout 300 "$python" -m throng run --server "$grpc_addr" \
          --scenario town --size 500 --ticks 100 --out "$work/town" --name town \
          --connect-timeout 60 --fail-on-collision 2>&1)
  rc=$?
  check "Python client town run" "$(grep -m1 '^scenario' <<<"$run"); $(grep -m1 '^collisions' <<<"$run" | cut -c1-40)" \
    test "$rc" = 0
  [ "$rc" = 0 ] || echo "$run" | tail -n 5 >&2
  calls stop-short --container "$name"
  if run_container; then
    calls stop-long --container "$name"
  else
    record FAIL "container restarts for stop-long (see its log above)"
  fi
else
  record SKIP "client checks (no $build/clients/python/gen or throng-scenario: build the service there)"
fi
[ "$failed" = 0 ]
