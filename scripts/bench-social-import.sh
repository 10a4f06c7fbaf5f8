#!/usr/bin/env bash
# Social import benchmark: social/importer's BenchmarkImport (generated
# tweets, API v2 shape, into WARC + RDF through the campaign runner) built
# at HEAD and at BEFORE, both processes run at once so that they share
# the machine's load, and their figures printed side by side with the
# load average at the start and the end and each process's peak RSS.
#
# Usage: scripts/bench-social-import.sh [TWEETS] [BEFORE]
#        (default: 1000000 tweets, BEFORE = main; BEFORE=none runs HEAD alone)
# Work files go to $BENCH_DIR (default /tmp/mneme-bench-social), deleted
# at the end; a run of 1,000,000 tweets needs some 4 GB of disk a process.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
TWEETS=${1:-1000000}
BEFORE=${2:-main}
WORK=${BENCH_DIR:-/tmp/mneme-bench-social}

log() { echo "bench-social-import: $*" >&2; }

mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT
versions=(after)
log "building the benchmark at $(git -C "$ROOT" rev-parse --short HEAD) (HEAD)"
(cd "$ROOT" && go test -c -o "$WORK/bench-after" ./social/importer)
if [ "$BEFORE" != none ]; then
	rev=$(git -C "$ROOT" rev-parse --short "$BEFORE")
	log "building the benchmark at $rev ($BEFORE)"
	mkdir -p "$WORK/src-before"
	git -C "$ROOT" archive "$rev" | tar -x -C "$WORK/src-before"
	(cd "$WORK/src-before" && go test -c -o "$WORK/bench-before" ./social/importer)
	rm -rf "$WORK/src-before"
	versions=(before after)
fi

la0=$(cut -d' ' -f1-3 /proc/loadavg)
log "$TWEETS tweets, load average $la0, $(date -u +%FT%TZ)"
pids=()
for v in "${versions[@]}"; do
	mkdir -p "$WORK/tmp-$v"
	TMPDIR="$WORK/tmp-$v" MNEME_IMPORT_TWEETS=$TWEETS /usr/bin/time -f "%M" -o "$WORK/rss-$v" \
		"$WORK/bench-$v" -test.run '^$' -test.bench Import -test.benchtime 1x >"$WORK/out-$v" 2>&1 &
	pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
la1=$(cut -d' ' -f1-3 /proc/loadavg)
for v in "${versions[@]}"; do
	line=$(grep -a '^BenchmarkImport' "$WORK/out-$v" || { cat "$WORK/out-$v" >&2; echo "$v: failed"; })
	echo "$v: $line peak-RSS-kB=$(cat "$WORK/rss-$v")"
done
echo "load average at the start: $la0; at the end: $la1; $(date -u +%FT%TZ)"
exit $status
