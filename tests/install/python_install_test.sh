#!/usr/bin/env bash
# The Python client as a user installs it (docs/INSTALLING.md), offline: a wheel built
# from a copy of clients/python, and the package installed with pip into a venv made with
# --system-site-packages (Debian's grpcio, protobuf and numpy). Then, from outside the
# tree and with no PYTHONPATH, one client session against a real throngd.
#
#   python_install_test.sh <throngd> <throng-scenario> <source dir> <scratch dir>
set -euo pipefail
throngd=$1 scenario_tool=$2 src=$3 work=$4
# shellcheck source=scripts/lib/start_throngd.sh
source "$src/scripts/lib/start_throngd.sh"
rm -rf "$work"
mkdir -p "$work"
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true; }
trap cleanup EXIT
unset PYTHONPATH THRONG_PY_GEN THRONG_SCENARIO_TOOL
export THRONG_PROTO_ROOT=$src/proto PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1

cp -r "$src/clients/python" "$work/src"
rm -rf "$work/src/build" "$work/src"/*.egg-info
/usr/bin/python3 -m pip wheel --no-deps --no-build-isolation -w "$work/wheel" "$work/src" \
    > "$work/wheel.log" 2>&1 || { cat "$work/wheel.log"; exit 1; }
wheel=$(ls "$work"/wheel/throng-*.whl)
members=$(/usr/bin/python3 -m zipfile -l "$wheel")
for member in throng/__init__.py throng/v1/simulation_pb2.py throng/v1/simulation_pb2_grpc.py; do
  grep -q "^$member " <<< "$members" ||
    { echo "python_install_test: $member is not in $wheel"; exit 1; }
done

/usr/bin/python3 -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install --no-build-isolation "$work/src" > "$work/pip.log" 2>&1 ||
    { cat "$work/pip.log"; exit 1; }

cd "$work"
"$scenario_tool" circle --size 20 --proto -o circle.v1.json
start_throngd throngd.log "$throngd" --listen 127.0.0.1:0 --metrics "" --backend cpu
"$work/venv/bin/python" - "$port" "$work/venv" <<'PY'
import sys
import throng

port, venv = sys.argv[1], sys.argv[2]
assert throng.__file__.startswith(venv), f"throng imported from {throng.__file__}"
assert throng.pb.__file__.startswith(venv), f"stubs imported from {throng.pb.__file__}"
scenario = throng.load_scenario("circle.v1.json")
with throng.Client(f"127.0.0.1:{port}", timeout=30) as c:
    c.wait_ready(10)
    world = c.create_world(scenario).world_id
    r = c.step(world, tick=scenario.tick, dt=scenario.dt, agents=scenario.agents)
    assert r.agents["vx"].shape == (20,), r.agents["vx"].shape
    assert (abs(r.agents["vx"]) + abs(r.agents["vy"]) > 0).all()
    c.delete_world(world)
print(f"python_install_test: {throng.__file__}, one step of 20 agents over gRPC")
PY
"$work/venv/bin/throng" --help > /dev/null
