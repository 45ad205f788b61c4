#!/usr/bin/env bash
# One command for the GPU machine: GPU tests, then the GPU benchmarks, all output in one
# folder. That machine has nvcc, CMake and ninja but none of Debian's packages and no
# network, so it runs binaries built here by bench/make_gpu_bundle.sh (carried in .gpu/),
# or, failing that, builds from the tree with GoogleTest and CLI11 carried in .carry/.
#
#   bash bench/gpu_check.sh [OUT_DIR]     (OUT_DIR defaults to $OUT, else ./gpu-check)
#
# Budget: under 8 minutes including a fallback build.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-${OUT:-gpu-check}}
mkdir -p "$out"
exec > >(tee "$out/gpu_check.log") 2>&1

echo "== gpu_check $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv || echo "nvidia-smi failed"
nproc

bin=.gpu/bin
if [ -x "$bin/throng_tests" ]; then
  echo "== using carried binaries from $bin"
else
  echo "== no carried binaries: building for sm_90 from the tree"
  bin=build-gpu/bin
  cmake -S . -B build-gpu -G Ninja -DTHRONG_CUDA=ON -DTHRONG_CUDA_ARCHS=90 \
    -DTHRONG_BUILD_SERVICE=OFF -DGTEST_ROOT="$PWD/.carry/gtest" \
    -DCMAKE_RUNTIME_OUTPUT_DIRECTORY="$PWD/build-gpu/bin" || exit 1
  cmake --build build-gpu -j "$(nproc)" --target throng_tests throng-bench-orca throng-bench-splines throng-bench-vehicles || exit 1
fi

status=0
echo "== GPU tests (cuda instances of the equivalence and determinism suites)"
timeout 300 "$bin/throng_tests" --gtest_filter='*cuda*:*Cuda*:BackendTest.*' \
  --gtest_output="json:$out/gpu_tests.json" || status=1

echo "== CPU tests on this host, for the record"
timeout 240 "$bin/throng_tests" --gtest_filter='*OrcaEquivalence*cpu*:*SplineEquivalence*cpu*' || status=1

echo "== benchmarks: ORCA 100k and 1M, cuda against cpu on identical inputs"
timeout 300 "$bin/throng-bench-orca" --backends cuda,cpu --scenarios random,circle \
  --sizes 100000,1000000 --ticks 20 --warmup 3 --no-overlaps --json "$out/orca_gpu.json" || status=1
timeout 120 "$bin/throng-bench-splines" --backends cuda,cpu --sizes 100000,1000000 \
  --json "$out/splines_gpu.json" || status=1
timeout 180 "$bin/throng-bench-vehicles" --backends cuda,cpu --sizes 100000,1000000 \
  --fan-sizes 100000,1000000 --repeats 5 --json "$out/vehicles_gpu.json" || status=1

echo "== gpu_check finished with status $status"
exit $status
