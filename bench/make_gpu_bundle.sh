#!/usr/bin/env bash
# Builds, on this (CPU-only) machine, what bench/gpu_check.sh needs on the GPU machine, and
# checks that it fits what the device tool carries (docs/PERFORMANCE.md, "GPU (H200)"):
#   .gpu/throng-gpu-bundle.tar.xz  one archive: bin/throng_tests (every unit test) and the
#                                  benchmarks gpu_check.sh runs, for sm_90, with the CUDA
#                                  runtime, GoogleTest and the C++ runtime linked statically
#   .carry/                        GoogleTest, CLI11 and nlohmann-json, for a fallback
#                                  build there
# Both folders are ignored by git and travel with `carry`. Every binary embeds the same
# device code; one solid xz archive stores it once. Fails when the archive and .carry
# together exceed --max-mib (48 by default). Google Benchmark's micro-benchmarks are left
# out: Debian ships that library only shared. It fails when the tree changes while it builds.
#
#   bench/make_gpu_bundle.sh [--build-dir DIR] [--out DIR] [--max-mib N] [-DCMAKE_OPTION ...]
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-gpu-bundle
out=.gpu
max_mib=48
cmake_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --max-mib) max_mib=$2; shift 2 ;;
    -D*) cmake_args+=("$1"); shift ;;
    *) echo "usage: $0 [--build-dir DIR] [--out DIR] [--max-mib N] [-DOPTION=VALUE ...]" >&2; exit 2 ;;
  esac
done
carry=$(dirname "$out")/.carry
targets=(throng_tests throng-bench throng-bench-orca throng-bench-splines throng-bench-vehicles)

# The compile flags are those of `make build` (only the link differs), so the compiler
# cache serves this build from that one's objects.
cmake -S . -B "$build" -G Ninja -DTHRONG_CUDA=ON -DTHRONG_BUILD_SERVICE=OFF \
  -DTHRONG_STATIC_RUNTIME=ON "${cmake_args[@]}" >/dev/null
# The sources must not change while they build: on 2026-12-04 a field added to a struct
# mid-build left two halves of one binary reading it at different offsets, and a GPU run
# was spent on that binary (docs/PERFORMANCE.md, "The third run was discarded").
tree_state() {
  if git rev-parse --git-dir >/dev/null 2>&1; then
    { git rev-parse HEAD; git diff HEAD; } | sha1sum
  fi
}
before=$(tree_state)
cmake --build "$build" --target "${targets[@]}"
if [ "$(tree_state)" != "$before" ]; then
  echo "make_gpu_bundle: the tree changed while it built; build again from a tree left alone" >&2
  exit 1
fi

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$out"
cp "$build/tests/throng_tests" "$stage/bin/"
for t in "${targets[@]:1}"; do cp "$build/bench/$t" "$stage/bin/"; done
strip "$stage/bin/"*
echo "dynamic libraries the binaries still need (the GPU machine has these):"
ldd "$stage/bin/throng_tests" | sed 's/^/  /'
# One solid stream: xz -9's 64 MiB window finds each binary's copy of the device code in
# the one before it.
tar -C "$stage" -cf - bin | xz -9 -T1 >"$out/throng-gpu-bundle.tar.xz"

mkdir -p "$carry/gtest/lib" "$carry/gtest/include" "$carry/include" "$carry/share/cmake"
cp -r /usr/include/gtest "$carry/gtest/include/"
cp /usr/lib/x86_64-linux-gnu/libgtest.a /usr/lib/x86_64-linux-gnu/libgtest_main.a "$carry/gtest/lib/"
cp -r /usr/include/CLI "$carry/include/"
# nlohmann-json with its CMake package: the config finds its headers relative to itself
# (.carry/share/cmake/nlohmann_json -> .carry/include), found through CMAKE_PREFIX_PATH.
cp -r /usr/include/nlohmann "$carry/include/"
cp -r /usr/share/cmake/nlohmann_json "$carry/share/cmake/"

archive_bytes=$(stat -c %s "$out/throng-gpu-bundle.tar.xz")
carry_bytes=$(du -sb "$carry" | cut -f1)
unpacked_bytes=$(du -sb "$stage/bin" | cut -f1)
total=$((archive_bytes + carry_bytes))
mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }
echo "gpu bundle: archive $(mib "$archive_bytes") ($(mib "$unpacked_bytes") unpacked, ${#targets[@]} binaries), .carry $(mib "$carry_bytes"), total $(mib "$total"), limit $max_mib MiB"
if [ "$total" -gt $((max_mib * 1048576)) ]; then
  echo "gpu bundle: FAILED, over the $max_mib MiB limit" >&2
  exit 1
fi
