#!/usr/bin/env bash
# Cayley benchmark: the same Gizmo queries on LUBM(8) against mneme's store
# under Cayley (package cayley) and against Cayley's own bolt backend,
# both loaded with the same data through Cayley's quad writer, in one run
# (queries interleaved: one run on each store in turn). Prints the load
# times and a Markdown table of median query times (docs/benchmarks.md,
# "Cayley: Gizmo on mneme and on bolt").
#
# Usage: scripts/bench-cayley.sh [DATA.nt.gz]   (default: LUBM(8) from ../shared)
# Environment: RUNS (timed runs per query and store, default 7), BENCH_DIR.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DATA=${1:-$ROOT/../shared/data/bench/lubm/lubm-univ8-seed0.nt.gz}
WORK=${BENCH_DIR:-/tmp/mneme-bench-cayley}
RUNS=${RUNS:-7}

[ -f "$DATA" ] || { echo "bench-cayley: no data at $DATA" >&2; exit 1; }
mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT
(cd "$ROOT" && go build -o "$WORK/cayleybench" ./scripts/bench/cayleybench)
echo "bench-cayley: $(date -u +%FT%TZ), commit $(git -C "$ROOT" rev-parse --short HEAD), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"$WORK/cayleybench" -data "$DATA" -dir "$WORK/stores" -runs "$RUNS"
