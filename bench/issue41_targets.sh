#!/usr/bin/env bash
# Issue 41's table in one command: every scene of throng-bench-flow judged against plain
# ORCA by `--targets` (bench/flow_targets.h) at the issue's sizes, 1,000 and 10,000 people
# (200 and 2,000 at the doors), seeds 1-3 (RVO2's circle and Blocks are RVO2's layouts with
# seed 1 and nudged by up to 1 cm with the others: three samples of a chaotic crowd). One
# thread a run, as docs/PERFORMANCE.md measures flow. The 10,000 set takes about an hour and
# a half on one core of the 2-core VM; --quick runs the 1,000 set alone (about 12 minutes).
# Further arguments go to every throng-bench-flow call, e.g. --set orca.side_bias=0.4 to
# judge a setting.
#
#   bench/issue41_targets.sh [--build-dir DIR] [--quick] [throng-bench-flow options ...]
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-cpu
quick=0
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build="$2"; shift 2 ;;
    --quick) quick=1; shift ;;
    *) extra+=("$1"); shift ;;
  esac
done
flow="$build/bench/throng-bench-flow"
if [ ! -x "$flow" ]; then
  echo "issue41_targets.sh: $flow not built (make build BUILD=$build CUDA=OFF)" >&2
  exit 2
fi

summaries=$(mktemp)
trap 'rm -f "$summaries"' EXIT
judge() {  # scenes sizes seeds
  OMP_NUM_THREADS=1 "$flow" --targets --scenarios "$1" --sizes "$2" --seeds "$3" "${extra[@]}" |
    tee -a "$summaries"
}

judge corridor,crossing,crossing_navigate,town,random 1000 1,2,3
judge circle,blocks,blocks_navigate 1000 1,2,3
judge bottleneck_1m,bottleneck_2m 200 1,2,3
if [ "$quick" = 0 ]; then
  judge corridor,crossing,crossing_navigate,town,random 10000 1,2,3
  judge circle,blocks,blocks_navigate 10000 1,2,3
  judge bottleneck_1m,bottleneck_2m 2000 1,2,3
fi
# Every call's "targets: M of J met" summed: the whole table's count.
awk '/^targets: [0-9]+ of [0-9]+ met/ { met += $2; judged += $4 }
     END { printf "all: %d of %d targets met\n", met, judged }' "$summaries"
