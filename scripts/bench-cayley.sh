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
#   FILE profiles the query runs; -fresh builds a Gizmo session per query
#   (off the clock) instead of keeping sessions across queries as mneme
#   serve does over a read-only store (api.Sessions, for both stores).
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
echo "bench-cayley: queries done $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# PROFILE=N: then N runs of the cheap queries under the CPU profiler,
# and a table of where each query's CPU goes on each store: the store's
# own code (mneme: packages cayley, graph and Pebble; bolt: Cayley's kv
# quad store, hidalgo and bolt), and the rest (Gizmo's JavaScript runtime,
# Cayley's iterators, the results' conversion), the same code for both
# stores. The flags given to this script go to that run too (-fresh).
if [ -n "${PROFILE:-}" ]; then
	prof=$WORK/cayley.pprof
	"$WORK/cayleybench" -reuse -dir "$WORK/stores" -runs "$PROFILE" -match '^Q(1|3|7) ' -cpuprofile "$prof" "$@" >/dev/null
	ms() { # samples of the profile matching pprof flags "$@", in ms per run
		go tool pprof -nodefraction=0 -nodecount=1000000 "$@" -top "$WORK/cayleybench" "$prof" 2>/dev/null |
			awk -v n="$((PROFILE + 1))" '/^Showing nodes accounting for/ {
				v = $5; sub(/,$/, "", v); u = v; gsub(/[0-9.]/, "", u); sub(/[a-z]+$/, "", v)
				f = u == "s" ? 1000 : u == "ms" ? 1 : u == "us" || u == "µs" ? 0.001 : u == "min" ? 60000 : 0
				printf "%.0f", v * f * 1000 / n; found = 1 } END { if (!found) printf "0" }'
	}
	echo
	echo "CPU per query in µs ($PROFILE runs each, load $(cut -d' ' -f1-3 /proc/loadavg))"
	echo
	echo "| query | store | all | store's own code | the rest (same code on both) |"
	echo "|---|---|---|---|---|"
	for q in empty Q1 Q3 Q7; do
		for st in mneme bolt; do
			own='mneme-archive/mneme/(cayley|graph)\.|cockroachdb/pebble'
			[ "$st" = bolt ] && own='cayley/graph/kv|hidal-go|boltdb'
			all=$(ms -tagfocus "run=^$st/$q\$")
			store=$(ms -tagfocus "run=^$st/$q\$" -focus "$own")
			echo "| $q | $st | $all | $store | $((all - store)) |"
		done
	done
fi
