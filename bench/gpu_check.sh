#!/usr/bin/env bash
# One command for the GPU machine: GPU tests, then the GPU benchmarks, all output in one
# folder. That machine has nvcc, CMake and ninja but none of Debian's packages and no
# network, so it runs binaries built here by bench/make_gpu_bundle.sh (carried in .gpu/),
# or, failing that, builds from the tree with GoogleTest and CLI11 carried in .carry/.
#
#   bash bench/gpu_check.sh [OUT_DIR]     (OUT_DIR defaults to $OUT, else ./gpu-check)
#
# Budget: under 8 minutes including a fallback build. Every step runs under `timeout`,
# capped to what is left of GPU_CHECK_BUDGET_S (default 470 s), so a slow step shortens
# the ones after it instead of overrunning; a step with no time left is logged as skipped.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-${OUT:-gpu-check}}
mkdir -p "$out"
exec > >(tee "$out/gpu_check.log") 2>&1
start=$SECONDS
budget=${GPU_CHECK_BUDGET_S:-470}
status=0

# step LIMIT_S COMMAND...: COMMAND under timeout min(LIMIT_S, time left in the budget).
step() {
  local limit=$1 left=$((budget - (SECONDS - start)))
  shift
  if [ "$left" -lt 15 ]; then
    echo "== skipped, budget spent: $*"
    return 1
  fi
  [ "$limit" -gt "$left" ] && limit=$left
  timeout "$limit" "$@"
}

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
    -DCMAKE_PREFIX_PATH="$PWD/.carry" \
    -DCMAKE_RUNTIME_OUTPUT_DIRECTORY="$PWD/build-gpu/bin" || exit 1
  # No Google Benchmark there: throng-bench-micro is left out of this build.
  cmake --build build-gpu -j "$(nproc)" --target throng_tests throng-bench-orca \
    throng-bench-splines throng-bench-vehicles throng-bench || exit 1
fi

echo "== GPU tests (cuda instances of the equivalence and determinism suites)"
step 300 "$bin/throng_tests" --gtest_filter='*cuda*:*Cuda*:BackendTest.*' \
  --gtest_output="json:$out/gpu_tests.json" || status=1

# The world tick is issue 8's headline (100k under 1 ms, 1M under 8 ms, 30x the cpu), so
# it runs before the unit benchmarks. cpu goes first: its integrated state is each next
# snapshot for both, and speedup_vs_first is cpu's median over cuda's. --budget-s keeps
# the 1M cpu runs to about 15 s of timed ticks each.
echo "== world ticks: random and town at 100k and 1M, cpu and cuda on identical inputs"
step 200 "$bin/throng-bench" --scenario random,town --sizes 100000,1000000 \
  --compare cpu,cuda --ticks 20 --warmup 3 --budget-s 15 --json "$out/world_gpu.json" || status=1

echo "== forward agents (cast fans): flock and drones at 10k and 100k, cpu and cuda"
step 120 "$bin/throng-bench" --scenario flock,drones --sizes 10000,100000 \
  --compare cpu,cuda --ticks 10 --warmup 2 --budget-s 10 --json "$out/forward_gpu.json" || status=1

echo "== CPU tests on this host, for the record"
step 240 "$bin/throng_tests" --gtest_filter='*OrcaEquivalence*cpu*:*SplineEquivalence*cpu*' || status=1

echo "== benchmarks: ORCA 100k and 1M, cuda against cpu on identical inputs"
step 300 "$bin/throng-bench-orca" --backends cuda,cpu --scenarios random,circle \
  --sizes 100000,1000000 --ticks 20 --warmup 3 --no-overlaps --json "$out/orca_gpu.json" || status=1
step 120 "$bin/throng-bench-splines" --backends cuda,cpu --sizes 100000,1000000 \
  --json "$out/splines_gpu.json" || status=1
step 180 "$bin/throng-bench-vehicles" --backends cuda,cpu --sizes 100000,1000000 \
  --fan-sizes 100000,1000000 --repeats 5 --json "$out/vehicles_gpu.json" || status=1

if [ -x "$bin/throng-bench-micro" ]; then
  echo "== micro-benchmarks on cuda (Google Benchmark, shared libraries from .gpu/lib)"
  step 90 env LD_LIBRARY_PATH="$PWD/.gpu/lib" "$bin/throng-bench-micro" \
    --benchmark_filter=/cuda/ --benchmark_min_time=0.05 \
    --benchmark_out="$out/micro_gpu.json" --benchmark_out_format=json || status=1
else
  echo "== micro-benchmarks skipped: no throng-bench-micro in $bin"
fi

echo "== gpu_check finished with status $status after $((SECONDS - start)) s"
exit $status
