#!/usr/bin/env bash
# Query-shape benchmark for the planning of property paths, MINUS,
# [NOT] EXISTS and joins of whole groups: the queries of
# scripts/bench/queries/lubm-shapes on LUBM, timed in one run on mneme
# before and after a change (two builds answering from the same store),
# Virtuoso 7 and Oxigraph (JS/WASM). Writes a table per data set to
# docs/benchmarks.md (between the shapes markers).
#
# Usage: scripts/bench-shapes.sh [DATASET...]   (lubm8 lubm80; default: lubm8)
# Environment: BEFORE (the revision to compare with, default the merge
# base with main), RUNS (timed warm runs per query, default 5), BENCH_DIR,
# OXIGRAPH=off to leave Oxigraph out.
#
# Timing as in scripts/bench-query.sh: mneme (`mneme serve`) and Virtuoso
# over HTTP by scripts/bench/querybench, one warm-up then RUNS runs,
# median; Oxigraph in process by scripts/bench/oxigraph-query.js.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=$ROOT/../shared/data/bench
WORK=${BENCH_DIR:-/tmp/mneme-bench-shapes}
RUNS=${RUNS:-5}
SETS=("$@")
[ ${#SETS[@]} -gt 0 ] || SETS=(lubm8)
BEFORE=${BEFORE:-$(cd "$ROOT" && git merge-base HEAD main)}
VPORT=11322
VHTTP=18902
MADDR=127.0.0.1:17889

log() { echo "bench-shapes: $*" >&2; }

[ -d "$SHARED" ] || { log "no benchmark data in $SHARED"; exit 1; }
mkdir -p "$WORK"
MPID=""
stop_mneme() {
	if [ -n "$MPID" ]; then
		kill "$MPID" 2>/dev/null || true
		wait "$MPID" 2>/dev/null || true
		MPID=""
	fi
}
trap 'stop_mneme; stop_virtuoso; rm -rf "$WORK"' EXIT

. "$ROOT/scripts/lib/peers.sh"
install_peers
log "building mneme (HEAD and $BEFORE) and querybench"
rm -rf "$WORK/before-src" && mkdir -p "$WORK/before-src"
(cd "$ROOT" && git archive "$BEFORE" | tar -x -C "$WORK/before-src")
(cd "$WORK/before-src" && go build -o "$WORK/mneme-before" ./cmd/mneme)
(cd "$ROOT" && go build -o "$WORK/mneme-after" ./cmd/mneme && go build -o "$WORK/querybench" ./scripts/bench/querybench)
queries=("$ROOT"/scripts/bench/queries/lubm-shapes/*.rq)

# serve_bench BINARY OUT times the queries on BINARY serving the store.
serve_bench() {
	: >"$WORK/serve.log"
	"$1" serve --store "$WORK/store" --addr "$MADDR" --timeout 30m --max-rows -1 2>"$WORK/serve.log" &
	MPID=$!
	for _ in $(seq 100); do
		grep -q 'at http://' "$WORK/serve.log" && break
		sleep 0.1
	done
	grep -q 'at http://' "$WORK/serve.log" || { log "mneme serve did not start"; cat "$WORK/serve.log" >&2; return 1; }
	"$WORK/querybench" -endpoint "http://$MADDR/sparql" -runs "$RUNS" "${queries[@]}" >"$2" || true
	stop_mneme
}

declare -A BLOCKS
for set in "${SETS[@]}"; do
	case $set in
	lubm*) n=${set#lubm} ;;
	*) log "unknown data set $set (want lubm8 or lubm80)"; exit 2 ;;
	esac
	load_before=$(cut -d' ' -f1-3 /proc/loadavg)
	zcat "$SHARED/lubm/lubm-univ$n-seed0.nt.gz" >"$WORK/data.nt"
	triples=$(wc -l <"$WORK/data.nt")
	log "$set: mneme load"
	rm -rf "$WORK/store"
	"$WORK/mneme-after" load --store "$WORK/store" "$WORK/data.nt" >/dev/null 2>&1
	log "$set: mneme before ($BEFORE) and after"
	serve_bench "$WORK/mneme-before" "$WORK/before.tsv"
	serve_bench "$WORK/mneme-after" "$WORK/after.tsv"
	rm -rf "$WORK/store"

	log "$set: Virtuoso"
	start_virtuoso
	vsql "ld_dir('$WORK', 'data.nt', 'http://bench.example/$set');" >/dev/null
	vsql "rdf_loader_run();" >/dev/null
	vsql "checkpoint;" >/dev/null
	"$WORK/querybench" -endpoint "http://127.0.0.1:$VHTTP/sparql" -runs "$RUNS" "${queries[@]}" >"$WORK/virtuoso.tsv" || true
	stop_virtuoso
	rm -rf "$WORK/virtuoso"
	if [ "${OXIGRAPH:-on}" = off ]; then
		: >"$WORK/oxigraph.tsv"
	else
		log "$set: Oxigraph"
		oxigraph_node "$ROOT/scripts/bench/oxigraph-query.js" "$WORK/data.nt" "$RUNS" "${queries[@]}" >"$WORK/oxigraph.tsv" || true
	fi
	rm -f "$WORK/data.nt"
	load_after=$(cut -d' ' -f1-3 /proc/loadavg)

	block=$(mktemp)
	{
		echo "### Query shapes, LUBM($n)"
		echo
		echo "$triples triples. Run $(date -u '+%Y-%m-%d %H:%M UTC'), median of $RUNS warm runs; load average $load_before before, $load_after after."
		echo "Before: $(cd "$ROOT" && git log -1 --format='%h %cs' "$BEFORE"); after: $(cd "$ROOT" && git log -1 --format='%h %cs' HEAD)."
		echo
		echo "| query | rows | before ms | after ms | Virtuoso 7 ms | Oxigraph-JS ms | before / Virtuoso | after / Virtuoso |"
		echo "|---|---|---|---|---|---|---|---|"
		awk -F'\t' -v bf="$WORK/before.tsv" -v vf="$WORK/virtuoso.tsv" -v of="$WORK/oxigraph.tsv" '
			BEGIN {
				while ((getline l < bf) > 0) { split(l, a, "\t"); br[a[1]] = a[2]; bt[a[1]] = a[3] }
				while ((getline l < vf) > 0) { split(l, a, "\t"); vr[a[1]] = a[2]; vt[a[1]] = a[3] }
				while ((getline l < of) > 0) { split(l, a, "\t"); or_[a[1]] = a[2]; ot[a[1]] = a[3] }
			}
			function ratio(t, v) { return (t != "-" && v != "-" && v > 0) ? sprintf("%.2f", t / v) : "-" }
			{
				q = $1; rows = $2
				if (!(q in or_)) { or_[q] = rows; ot[q] = "not run" }
				if (br[q] != rows || vr[q] != rows || or_[q] != rows) rows = rows " / " br[q] " / " vr[q] " / " or_[q] " (differ)"
				r = ratio($3, vt[q])
				if (r != "-") { n++; lg += log(r); if (r + 0 > worst) { worst = r + 0; wq = q } }
				printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", q, rows, bt[q], $3, vt[q], ot[q], ratio(bt[q], vt[q]), r
			}
			END {
				if (n) printf "\nAfter / Virtuoso: geometric mean %.2f over %d queries, worst %.2f (%s).\n", exp(lg / n), n, worst, wq
			}' "$WORK/after.tsv"
		echo
		echo "When the systems disagree the rows cell lists after / before / Virtuoso / Oxigraph."
	} >"$block"
	BLOCKS[$set]=$block
	cat "$block" >&2
done

. "$ROOT/scripts/lib/docs.sh"
for set in "${SETS[@]}"; do
	put_block "shapes-$set" scripts/bench-shapes.sh "${BLOCKS[$set]}"
done
log "wrote $ROOT/docs/benchmarks.md"
