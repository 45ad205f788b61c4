#!/usr/bin/env bash
# Builds, on this (CPU-only) machine, what bench/gpu_check.sh needs on the GPU machine:
# .gpu/bin/ with the test and benchmark binaries for sm_90 (CUDA runtime, GoogleTest and
# the C++ runtime linked statically), and .carry/ with GoogleTest and CLI11 for a
# fallback build there. Both folders are ignored by git and travel with `carry`.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-gpu-bundle -G Ninja -DTHRONG_CUDA=ON -DTHRONG_CUDA_ARCHS=90 \
  -DTHRONG_BUILD_SERVICE=OFF -DTHRONG_STATIC_RUNTIME=ON
cmake --build build-gpu-bundle --target throng_tests throng-bench-orca throng-bench-splines throng-bench-vehicles
mkdir -p .gpu/bin .carry/gtest/lib .carry/include
cp build-gpu-bundle/tests/throng_tests build-gpu-bundle/bench/throng-bench-orca \
  build-gpu-bundle/bench/throng-bench-splines build-gpu-bundle/bench/throng-bench-vehicles .gpu/bin/
strip .gpu/bin/*
mkdir -p .carry/gtest/include && cp -r /usr/include/gtest .carry/gtest/include/
cp /usr/lib/x86_64-linux-gnu/libgtest.a /usr/lib/x86_64-linux-gnu/libgtest_main.a .carry/gtest/lib/
cp -r /usr/include/CLI .carry/include/
echo "dynamic libraries the binaries still need:"
ldd .gpu/bin/throng_tests | sed 's/^/  /'
du -sh .gpu .carry
