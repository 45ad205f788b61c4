#!/usr/bin/env bash
# Throng as a user installs it (docs/INSTALLING.md): `cmake --install` into a fresh prefix,
# then, from outside the source tree,
#   1. clients/cpp/examples built as a separate CMake project with find_package(Throng);
#   2. a program built with nothing but `pkg-config throng-client`;
#   3. the prefix's throngd started, the prefix's throng-scenario writing the town, and
#      the example's game_loop running it for 20 ticks, Step by Step and as one stream.
#
#   install_test.sh <build dir> <source dir> <scratch dir>
set -euo pipefail
build=$1 src=$2 work=$3
# shellcheck source=scripts/lib/start_throngd.sh
source "$src/scripts/lib/start_throngd.sh"
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true; }
trap cleanup EXIT

cmake --install "$build" --prefix "$prefix" > "$work/install.log"
for f in bin/throngd bin/throng-scenario include/throng/client.h \
         include/throng/v1/simulation.pb.h lib/libthrong_client.a \
         lib/cmake/Throng/ThrongConfig.cmake lib/pkgconfig/throng-client.pc \
         share/throng/proto/throng/v1/simulation.proto; do
  [ -e "$prefix/$f" ] || { echo "install_test: $f was not installed"; exit 1; }
done
# Nothing of the engine beyond the column tables the client's headers expand.
extra=$(cd "$prefix/include/throng" && find . -name '*.h' -o -name '*.cuh' | sort |
        grep -v '^./[a-z_]*\.h$\|^./v1/\|^./kernels/world/column_tables.h$' || true)
[ -z "$extra" ] || { echo "install_test: engine headers installed: $extra"; exit 1; }

# The Python package as cmake --install lays it out, stubs included.
PYTHONPATH=$prefix/lib/python3/dist-packages PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -c \
    "import throng, sys; assert throng.pb.__file__.startswith(sys.argv[1]), throng.pb.__file__" \
    "$prefix"

# 1. find_package, out of the tree (a copy of the examples folder, as a user would take it).
cp -r "$src/clients/cpp/examples" "$work/examples"
cmake -S "$work/examples" -B "$work/examples-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$prefix" > "$work/examples-configure.log"
cmake --build "$work/examples-build" > "$work/examples-build.log"

# 2. pkg-config alone.
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
# shellcheck disable=SC2046
g++ -std=c++20 -O1 "$src/tests/install/pkg_config_client.cpp" -o "$work/pkg_config_client" \
    $(pkg-config --cflags --libs throng-client)

# 3. Against the prefix's throngd.
cd "$work"
"$prefix/bin/throng-scenario" town --size 200 --proto -o town.v1.json
./pkg_config_client town.v1.json
start_throngd throngd.log "$prefix/bin/throngd" --listen 127.0.0.1:0 --metrics "" --backend cpu
for mode in "" --stream; do
  examples-build/game_loop --server "127.0.0.1:$port" --scenario-file town.v1.json \
      --ticks 20 $mode > "game_loop$mode.log"
  grep -q '^world .* on cpu: 200 pedestrians, [0-9]* vehicles$' "game_loop$mode.log"
  grep -q '^20 ticks: latency p50' "game_loop$mode.log"
done
echo "install_test: installed into $prefix; find_package, pkg-config and game_loop work"
