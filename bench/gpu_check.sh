#!/usr/bin/env bash
# One command for the GPU machine: the cuda tests, a memcheck pass, then the GPU
# benchmarks, all output in one folder. That machine has the CUDA toolkit, CMake and ninja
# but none of Debian's packages and no network, so it runs the binaries that
# bench/make_gpu_bundle.sh built here (.gpu/throng-gpu-bundle.tar.xz), or, failing that,
# builds from the tree with GoogleTest and CLI11 carried in .carry/.
#
#   bash bench/gpu_check.sh [OUT_DIR]           (OUT_DIR defaults to $OUT, else ./gpu-check)
#   bash bench/gpu_check.sh --dry-run [OUT_DIR] (on a CPU machine: everything but the GPU)
#
# Budget: GPU_CHECK_BUDGET_S (default 300 s) for the steps after the set-up. A fallback
# build has its own limit (GPU_CHECK_BUILD_S, default 420 s) outside that budget. Every
# step runs under `timeout`, capped to what is left of the budget, so a slow step shortens
# the ones after it; a step with no time left fails the check. THRONG_REQUIRE_CUDA=1 makes
# every cuda test and benchmark lane fail, not skip, without a device. No step does work
# that needs no GPU.
set -uo pipefail
cd "$(dirname "$0")/.."

dry_run=0
if [ "${1:-}" = "--dry-run" ]; then
  dry_run=1
  shift
fi
out=${1:-${OUT:-gpu-check}}
mkdir -p "$out"
exec > >(tee "$out/gpu_check.log") 2>&1
budget=${GPU_CHECK_BUDGET_S:-300}
build_limit=${GPU_CHECK_BUILD_S:-420}
export THRONG_REQUIRE_CUDA=1
status=0
expected_total=0

# The cuda tests worth a GPU: every cuda instance (equivalence, determinism, the world on
# cuda). Under memcheck: the kernels that index through grids and rings, and the
# pedestrians' preparation, report and move, which read staged blocks where an absent
# column is a null pointer, and the forward agents' fans among bodies (their agents and
# bodies made on the device, the bodies' box grid built there, the state kept between an
# Advance's ticks; added 2026-12-06), and the navigating pedestrians' steering (fields and
# targets copied by version, goals read from the preparation's block; added 2026-12-07),
# and the solve's way round standing obstacles (its local cones sized by the neighbour cap;
# added 2026-12-07) (small scenes: seconds).
test_filter='*cuda*:*Cuda*'
memcheck_filter='*ContactsTest*cuda*:*PathCheck*cuda*:*NeighborGrid*cuda*:*Pedestrian*cuda*:*NavSteerTest*cuda*:*ForwardValueChecksTest*cuda*:*StandingDetourBackendTest*cuda*:*WorldForwardTest.BodiesAreAvoidedToo/cuda:*WorldForwardTest.AnAdvanceAmongPedestrians*/cuda'

# step EXPECTED_S LIMIT_S NAME COMMAND...: COMMAND under timeout min(LIMIT_S, budget left).
# EXPECTED_S is the step's usual time on an H200 with carried binaries, from the first
# run there (2026-12-04: 54, 1, 14 before the 1M town, 3, 15, 3 and 8 s) with margin: the
# dry run adds them up. Memcheck's 20 s is an estimate until a GPU run times it with the
# pedestrians' tests (added 2026-12-06).
step() {
  local expected=$1 limit=$2 name=$3
  shift 3
  expected_total=$((expected_total + expected))
  if [ "$dry_run" = 1 ]; then
    echo "== [dry run] $name: expected ${expected} s, limit ${limit} s: $*"
    return 0
  fi
  local left=$((budget - (SECONDS - start)))
  if [ "$left" -lt 10 ]; then
    echo "== FAILED, budget spent before: $name"
    status=1
    return 1
  fi
  [ "$limit" -gt "$left" ] && limit=$left
  echo "== $name (limit ${limit} s)"
  local t0=$SECONDS
  timeout "$limit" "$@"
  local code=$?
  echo "== $name: exit $code after $((SECONDS - t0)) s"
  [ "$code" -eq 0 ] || status=1
  return "$code"
}

echo "== gpu_check $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)$([ "$dry_run" = 1 ] && echo ', dry run')"
if [ "$dry_run" = 0 ]; then
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv || echo "nvidia-smi failed"
fi
nproc

bin=""
# GPU_CHECK_BUNDLE and GPU_CHECK_UNPACK_DIR: the archive and where it is unpacked (not
# under OUT_DIR, whose files travel back).
bundle=$(realpath -m "${GPU_CHECK_BUNDLE:-.gpu/throng-gpu-bundle.tar.xz}")
unpack=${GPU_CHECK_UNPACK_DIR:-build-gpu-carried}
if [ -f "$bundle" ]; then
  echo "== unpacking the carried bundle $bundle"
  rm -rf "$unpack" && mkdir -p "$unpack"
  # CMake's own tar reads xz: no Debian package is needed there.
  (cd "$unpack" && cmake -E tar xf "$bundle") || { echo "== FAILED to unpack"; exit 1; }
  bin=$unpack/bin
elif [ "$dry_run" = 1 ]; then
  echo "== [dry run] FAILED: no $bundle (run bench/make_gpu_bundle.sh first)"
  exit 1
else
  echo "== no carried bundle: building for sm_90 from the tree (limit ${build_limit} s)"
  bin=build-gpu/bin
  timeout "$build_limit" bash -c '
    cmake -S . -B build-gpu -G Ninja -DTHRONG_CUDA=ON -DTHRONG_CUDA_ARCHS=90 \
      -DTHRONG_BUILD_SERVICE=OFF -DGTEST_ROOT="$PWD/.carry/gtest" \
      -DCMAKE_PREFIX_PATH="$PWD/.carry" -DCMAKE_RUNTIME_OUTPUT_DIRECTORY="$PWD/build-gpu/bin" &&
    cmake --build build-gpu -j "$(nproc)" --target throng_tests throng-bench-orca \
      throng-bench-splines throng-bench-vehicles throng-bench' || {
    echo "== FAILED: the fallback build did not finish"
    exit 1
  }
fi
for b in throng_tests throng-bench throng-bench-orca throng-bench-splines throng-bench-vehicles; do
  [ -x "$bin/$b" ] || { echo "== FAILED: $bin/$b missing"; exit 1; }
done

# The set-up is outside the budget; the steps start now.
start=$SECONDS
cuda_tests=$("$bin/throng_tests" --gtest_list_tests --gtest_filter="$test_filter" | grep -c '^  ')
memcheck_tests=$("$bin/throng_tests" --gtest_list_tests --gtest_filter="$memcheck_filter" | grep -c '^  ')
echo "== $cuda_tests cuda tests, $memcheck_tests of them under memcheck"
if [ "$cuda_tests" -eq 0 ] || [ "$memcheck_tests" -eq 0 ]; then
  echo "== FAILED: a filter matches no test"
  status=1
fi

# 100 s: 80 before the cuda instances of WorldAdvanceTest and WorldRestoreTest (85 small
# worlds of 150 agents, added 2026-12-06: Advance's chained ticks, a stopped Advance and
# Kept() on the device), about 20 s more by estimate until a GPU run times them.
step 100 150 "cuda tests" "$bin/throng_tests" --gtest_filter="$test_filter" \
  --gtest_output="json:$out/gpu_tests.json"

sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ -x "$sanitizer" ] || [ "$dry_run" = 1 ]; then
  step 20 120 "memcheck" "$sanitizer" --tool memcheck --error-exitcode 1 \
    "$bin/throng_tests" --gtest_filter="$memcheck_filter"
else
  echo "== FAILED: no compute-sanitizer on this machine"
  status=1
fi

# The world tick is the headline (100k under 1 ms, 1M under 8 ms). cpu goes first: its
# integrated state is each next snapshot for both, and speedup_vs_first is cpu's median
# over cuda's. --budget-s keeps the 1M cpu runs short.
step 40 100 "world ticks: random and town at 100k and 1M, cpu and cuda" \
  "$bin/throng-bench" --scenario random,town --sizes 100000,1000000 \
  --compare cpu,cuda --ticks 20 --warmup 3 --budget-s 10 --json "$out/world_gpu.json"

# The pinned staging (kernels/backends/cuda_staging.cuh) against pageable copies of each
# column, and the cache for Thrust's scratch storage (cuda_temporaries.cuh) against
# Thrust's own cudaMalloc and cudaFree: cuda alone, the same scenes one after the other.
step 30 80 "cuda staging and scratch cache: random at 100k and 1M, default, then each off" \
  bash -c 'for setting in default THRONG_CUDA_STAGING=0 THRONG_CUDA_CACHE=0; do
    echo "-- $setting"
    env $([ "$setting" = default ] || echo "$setting") "$0" --scenario random \
      --sizes 100000,1000000 --backends cuda --ticks 20 --warmup 3 --budget-s 5 || exit 1
  done' "$bin/throng-bench"

step 10 60 "forward agents: flock and drones at 10k and 100k, cpu and cuda" \
  "$bin/throng-bench" --scenario flock,drones --sizes 10000,100000 \
  --compare cpu,cuda --ticks 10 --warmup 2 --budget-s 5 --json "$out/forward_gpu.json"

step 20 80 "ORCA at 100k and 1M, cuda against cpu" \
  "$bin/throng-bench-orca" --backends cuda,cpu --scenarios random,circle \
  --sizes 100000,1000000 --ticks 10 --warmup 2 --no-overlaps --json "$out/orca_gpu.json"

step 5 40 "splines at 100k and 1M" \
  "$bin/throng-bench-splines" --backends cuda,cpu --sizes 100000,1000000 \
  --json "$out/splines_gpu.json"

step 10 50 "vehicles and fans at 100k and 1M" \
  "$bin/throng-bench-vehicles" --backends cuda,cpu --sizes 100000,1000000 \
  --fan-sizes 100000,1000000 --repeats 3 --json "$out/vehicles_gpu.json"

if [ "$dry_run" = 1 ]; then
  echo "== [dry run] expected device time of the steps: ${expected_total} s (budget ${budget} s)"
  [ "$expected_total" -le "$budget" ] || { echo "== [dry run] FAILED: over the budget"; status=1; }
fi
echo "== gpu_check finished with status $status after $((SECONDS - start)) s of steps"
exit $status
