#!/usr/bin/env bash
# Builds, on this (CPU-only) machine, what bench/gpu_check.sh needs on the GPU machine:
# .gpu/bin/ with the test and benchmark binaries for sm_90 (CUDA runtime, GoogleTest and
# the C++ runtime linked statically), .gpu/lib/ with the shared libraries that
# throng-bench-micro still needs (Debian ships Google Benchmark only as a shared library),
# and .carry/ with GoogleTest, CLI11 and nlohmann-json for a fallback build there. Both
# folders are ignored by git and travel with `carry`.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(throng-bench-orca throng-bench-splines throng-bench-vehicles throng-bench throng-bench-micro)
cmake -S . -B build-gpu-bundle -G Ninja -DTHRONG_CUDA=ON -DTHRONG_CUDA_ARCHS=90 \
  -DTHRONG_BUILD_SERVICE=OFF -DTHRONG_STATIC_RUNTIME=ON
cmake --build build-gpu-bundle --target throng_tests "${targets[@]}"
mkdir -p .gpu/bin .gpu/lib .carry/gtest/lib .carry/include .carry/share/cmake
cp build-gpu-bundle/tests/throng_tests .gpu/bin/
for t in "${targets[@]}"; do cp "build-gpu-bundle/bench/$t" .gpu/bin/; done
strip .gpu/bin/*
# libbenchmark and the C++ runtime it was linked against (the GPU machine's may be older);
# gpu_check.sh puts .gpu/lib on LD_LIBRARY_PATH for throng-bench-micro only.
for lib in libbenchmark.so.1debian libstdc++.so.6 libgcc_s.so.1; do
  cp -L "/usr/lib/x86_64-linux-gnu/$lib" .gpu/lib/
done
mkdir -p .carry/gtest/include && cp -r /usr/include/gtest .carry/gtest/include/
cp /usr/lib/x86_64-linux-gnu/libgtest.a /usr/lib/x86_64-linux-gnu/libgtest_main.a .carry/gtest/lib/
cp -r /usr/include/CLI .carry/include/
# nlohmann-json with its CMake package: the config finds its headers relative to itself
# (.carry/share/cmake/nlohmann_json -> .carry/include), found through CMAKE_PREFIX_PATH.
cp -r /usr/include/nlohmann .carry/include/
cp -r /usr/share/cmake/nlohmann_json .carry/share/cmake/
echo "dynamic libraries the binaries still need:"
ldd .gpu/bin/throng_tests | sed 's/^/  /'
echo "throng-bench-micro, with .gpu/lib first:"
LD_LIBRARY_PATH=.gpu/lib ldd .gpu/bin/throng-bench-micro | sed 's/^/  /'
du -sh .gpu .carry
