#!/usr/bin/env bash
# The .deb packages (docs/INSTALLING.md): CPack makes them from the build folder, then
# each is read with dpkg-deb (name, architecture, dependencies, maintainer scripts,
# conffiles, contents) and checked by lintian, whose errors fail the test. Installing
# them for real is scripts/check_packages (CI, as root, on a fresh machine).
#
#   deb_test.sh <build dir> <scratch dir>
set -euo pipefail
build=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
fail() { echo "deb_test: $*"; exit 1; }

cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work" > "$work/cpack.log" 2>&1 ||
    { cat "$work/cpack.log"; exit 1; }
cd "$work"
version=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")
throngd=throngd_${version}_amd64.deb
client=libthrong-client-dev_${version}_amd64.deb
python=python3-throng_${version}_all.deb
for deb in "$throngd" "$client" "$python"; do [ -f "$deb" ] || fail "$deb was not made"; done

field() { dpkg-deb --field "$1" "$2"; }
has() {  # has <deb> <path>...: every path is in the package
  local deb=$1 contents
  shift
  contents=$(dpkg-deb --contents "$deb" | awk '{print $6}')
  for path in "$@"; do
    grep -qx "./${path#/}" <<< "$contents" || fail "$deb lacks $path"
  done
}

# throngd: Debian's shared libraries as dependencies (dpkg-shlibdeps), its user made by
# adduser, the unit, the configuration as a conffile, the manual pages.
deps=$(field "$throngd" Depends)
for dep in adduser 'libgrpc++1.51' libprotobuf32 'libprometheus-cpp-core1.0' libgomp1; do
  grep -q "\(^\|, \)$dep\( \|,\|$\)" <<< "$deps" || fail "$throngd: Depends lacks $dep: $deps"
done
has "$throngd" /usr/bin/throngd /usr/bin/throng-scenario \
    /usr/lib/systemd/system/throngd.service /etc/throng/throngd.conf \
    /usr/share/man/man1/throngd.1.gz /usr/share/man/man1/throng-scenario.1.gz \
    /usr/share/doc/throngd/copyright /usr/share/doc/throngd/changelog.gz
dpkg-deb --ctrl-tarfile "$throngd" | tar -x -C "$work" ./conffiles ./postinst ./prerm ./postrm
grep -qx /etc/throng/throngd.conf conffiles || fail "$throngd: throngd.conf is not a conffile"
for script in postinst prerm postrm; do
  [ -x "$script" ] || fail "$throngd: $script is not executable"
  sh -n "$script" || fail "$throngd: $script does not parse"
done
grep -q 'adduser .*--system' postinst || fail "$throngd: postinst makes no system user"
# The stop timeout stays above the configuration's drain time.
dpkg-deb --fsys-tarfile "$throngd" |
    tar -x -O ./usr/lib/systemd/system/throngd.service ./etc/throng/throngd.conf > unit+conf
stop=$(sed -n 's/^TimeoutStopSec=\([0-9]*\)$/\1/p' unit+conf)
grace=$(sed -n 's/^shutdown-grace = \([0-9]*\)$/\1/p' unit+conf)
[ -n "$stop" ] && [ -n "$grace" ] && [ "$stop" -gt "$grace" ] ||
    fail "TimeoutStopSec ($stop) must exceed shutdown-grace ($grace)"

# The client: headers, libraries, CMake and pkg-config files; gRPC and Protobuf's
# development packages as dependencies, nothing of the engine.
deps=$(field "$client" Depends)
for dep in 'libgrpc++-dev' libprotobuf-dev; do
  grep -q "$dep" <<< "$deps" || fail "$client: Depends lacks $dep: $deps"
done
has "$client" /usr/include/throng/client.h /usr/include/throng/v1/simulation.pb.h \
    /usr/lib/libthrong_client.a /usr/lib/libthrong_proto.a \
    /usr/lib/cmake/Throng/ThrongConfig.cmake /usr/lib/pkgconfig/throng-client.pc \
    /usr/share/throng/proto/throng/v1/simulation.proto
! dpkg-deb --contents "$client" | grep -q '\.cuh$' || fail "$client ships engine headers"

# Python: architecture-independent, the stubs inside, Debian's Python packages as
# dependencies, no byte code.
[ "$(field "$python" Architecture)" = all ] || fail "$python is not Architecture: all"
deps=$(field "$python" Depends)
for dep in python3-grpcio python3-protobuf python3-numpy; do
  grep -q "$dep" <<< "$deps" || fail "$python: Depends lacks $dep: $deps"
done
has "$python" /usr/lib/python3/dist-packages/throng/__init__.py \
    /usr/lib/python3/dist-packages/throng/v1/simulation_pb2.py \
    /usr/lib/python3/dist-packages/throng/v1/simulation_pb2_grpc.py
! dpkg-deb --contents "$python" | grep -q '\.pyc$\|__pycache__' || fail "$python ships byte code"

# lintian: errors fail (warnings are printed).
command -v lintian >/dev/null || fail "lintian is not installed (scripts/setup installs it)"
status=0
lintian --fail-on error "$throngd" "$client" "$python" > lintian.log 2>&1 || status=$?
grep -v 'running with root privileges' lintian.log || true
[ "$status" -eq 0 ] || fail "lintian reports errors (exit $status)"
echo "deb_test: $throngd, $client, $python: contents, dependencies and lintian pass"
