#!/usr/bin/env bash
# Cayley benchmark: the same Gizmo queries on LUBM(8) against mneme's store
# under Cayley (package cayley) and against Cayley's own bolt backend,
# both loaded with the same data through Cayley's quad writer, in one run
# (queries interleaved: one run on each store in turn). Prints the load
# times and a Markdown table of median query times (docs/benchmarks.md,
# "Cayley: Gizmo on mneme and on bolt").
#
# Usage: scripts/bench-cayley.sh [DATA.nt.gz] [CAYLEYBENCH FLAGS...]
#   (default data: LUBM(8) from ../shared). Flags go to cayleybench:
#   -reuse queries the stores an earlier run left in BENCH_DIR without
#   loading them again; -match RE runs some of the queries; -cpuprofile
#   FILE profiles the query runs.
# Environment: RUNS (timed runs per query and store, default 7); BENCH_DIR
# (work directory, kept for -reuse; without it a temporary one, removed
# at exit).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DATA=$ROOT/../shared/data/bench/lubm/lubm-univ8-seed0.nt.gz
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
	DATA=$1
	shift
fi
RUNS=${RUNS:-7}
if [ -n "${BENCH_DIR:-}" ]; then
	WORK=$BENCH_DIR
	mkdir -p "$WORK"
else
	WORK=$(mktemp -d /tmp/mneme-bench-cayley.XXXXXX)
	trap 'rm -rf "$WORK"' EXIT
fi

[ -f "$DATA" ] || { echo "bench-cayley: no data at $DATA" >&2; exit 1; }
(cd "$ROOT" && go build -o "$WORK/cayleybench" ./scripts/bench/cayleybench)
echo "bench-cayley: $(date -u +%FT%TZ), commit $(git -C "$ROOT" rev-parse --short HEAD), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"$WORK/cayleybench" -data "$DATA" -dir "$WORK/stores" -runs "$RUNS" "$@"
echo "bench-cayley: done $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
