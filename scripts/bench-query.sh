#!/usr/bin/env bash
# Query benchmark: mneme vs Virtuoso 7 vs Oxigraph (JS/WASM build), one
# after the other on the same data and the same query files, in one run.
# Writes one table per data set to the "SPARQL queries" section of
# docs/benchmarks.md (between the queries markers).
#
# Usage: scripts/bench-query.sh [DATASET...]   (lubm8 lubm80 bsbm1m; default: all)
# Environment: RUNS (timed warm runs per query, default 5), BENCH_DIR,
# OXIGRAPH=off to leave Oxigraph out (its in-memory load of LUBM(80) takes
# most of an hour here; the table then says it was not run).
#
# Data sets (../shared/data/bench): LUBM(N) runs q1, q2, qc and the 14
# inference-free LUBM queries (plus q11b); BSBM 1M runs the explore
# templates 1-12 but 6 (ignoreQueries.txt), their parameters picked from the
# data by the rules in bsbm_params below.
#
# Timing: mneme (`mneme serve`) and Virtuoso answer over HTTP, both timed
# by scripts/bench/querybench: one warm-up run, then RUNS runs, from the
# request to the last byte of the answer (SPARQL JSON; Turtle for graphs),
# median reported. Oxigraph has no server in its JS build: it is timed in
# process (scripts/bench/oxigraph-query.js), the whole answer materialized.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=$ROOT/../shared/data/bench
WORK=${BENCH_DIR:-/tmp/mneme-bench-query}
RUNS=${RUNS:-5}
SETS=("$@")
[ ${#SETS[@]} -gt 0 ] || SETS=(lubm8 lubm80 bsbm1m)
VPORT=11312
VHTTP=18892
MADDR=127.0.0.1:17879

log() { echo "bench-query: $*" >&2; }

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
log "building mneme and querybench"
(cd "$ROOT" && go build -o "$WORK/mneme" ./cmd/mneme && go build -o "$WORK/querybench" ./scripts/bench/querybench)

start_mneme() {
	# Emptied here, not only by the redirection in the child, so that
	# the wait below cannot read the previous data set's "at http://".
	: >"$WORK/serve.log"
	"$WORK/mneme" serve --store "$WORK/store" --addr "$MADDR" --timeout 30m --max-rows -1 2>"$WORK/serve.log" &
	MPID=$!
	for _ in $(seq 100); do
		grep -q 'at http://' "$WORK/serve.log" && return 0
		sleep 0.1
	done
	log "mneme serve did not start"; cat "$WORK/serve.log" >&2; return 1
}

# first_cell runs a query on mneme serve and prints the first column of
# the answer's row ROW (default 1) in N-Triples form.
first_cell() {
	curl -sf -H 'Accept: text/tab-separated-values' --data-urlencode "query=$1" "http://$MADDR/sparql" |
		awk -F'\t' -v row="${2:-1}" 'NR == row + 1 { print $1 }'
}

# bsbm_params instantiates the explore templates into $WORK/queries with
# parameters picked deterministically from the loaded data: the product
# type with the most products; its three most frequent features; the
# product with the most offers; that product's first review and first
# offer (by IRI); x = 500 and y = 1500 for the numeric properties (their
# values run from 1 to 1999); currentDate 2008-06-20 (offers are valid from
# 2008-03-22 to 2008-09-17).
bsbm_params() {
	local pre='PREFIX bsbm: <http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/vocabulary/>'
	local type feat1 feat2 feat3 product review offer
	type=$(first_cell "$pre SELECT ?t (COUNT(?p) AS ?n) WHERE { ?p a ?t . ?t a bsbm:ProductType } GROUP BY ?t ORDER BY DESC(?n) ?t LIMIT 1")
	local features="$pre SELECT ?f (COUNT(?p) AS ?n) WHERE { ?p a $type ; bsbm:productFeature ?f } GROUP BY ?f ORDER BY DESC(?n) ?f LIMIT 3"
	feat1=$(first_cell "$features" 1) feat2=$(first_cell "$features" 2) feat3=$(first_cell "$features" 3)
	product=$(first_cell "$pre SELECT ?p (COUNT(?o) AS ?n) WHERE { ?o bsbm:product ?p } GROUP BY ?p ORDER BY DESC(?n) ?p LIMIT 1")
	review=$(first_cell "$pre SELECT ?r WHERE { ?r bsbm:reviewFor $product } ORDER BY ?r LIMIT 1")
	offer=$(first_cell "$pre SELECT ?o WHERE { ?o bsbm:product $product } ORDER BY ?o LIMIT 1")
	for v in "$type" "$feat1" "$feat2" "$feat3" "$product" "$review" "$offer"; do
		[ -n "$v" ] || { log "BSBM: a parameter query found nothing"; return 1; }
	done
	BSBM_PARAMS="ProductType $type, features $feat1 $feat2 $feat3, product $product, review $review, offer $offer"
	log "BSBM parameters: $BSBM_PARAMS"
	local n
	for n in 1 2 3 4 5 7 8 9 10 11 12; do
		sed -e "s|%ProductType%|$type|g" -e "s|%ProductFeature1%|$feat1|g" \
			-e "s|%ProductFeature2%|$feat2|g" -e "s|%ProductFeature3%|$feat3|g" \
			-e "s|%ProductXYZ%|$product|g" -e "s|%ReviewXYZ%|$review|g" -e "s|%OfferXYZ%|$offer|g" \
			-e "s|%x%|500|g" -e "s|%y%|1500|g" \
			-e "s|%currentDate%|\"2008-06-20T00:00:00\"^^<http://www.w3.org/2001/XMLSchema#dateTime>|g" \
			"$SHARED/bsbm/queries/explore/query$n.txt" >"$WORK/queries/bsbm-q$(printf %02d "$n").rq"
	done
}

calc() { awk "BEGIN { print $* }"; }

# --- runs --------------------------------------------------------------
MACHINE="$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(free -g | awk '/Mem:/ {print $2}') GiB RAM"
declare -A BLOCKS

for set in "${SETS[@]}"; do
	rm -rf "$WORK/queries" && mkdir -p "$WORK/queries"
	case $set in
	lubm*)
		n=${set#lubm}
		gz=$SHARED/lubm/lubm-univ$n-seed0.nt.gz
		title="LUBM($n)"
		cp "$SHARED"/lubm/q1.rq "$SHARED"/lubm/q2.rq "$SHARED"/lubm/qc.rq "$SHARED"/lubm/lubm-q*.rq "$WORK/queries/"
		;;
	bsbm1m)
		gz=$SHARED/bsbm/bsbm1m.nt.gz
		title="BSBM 1M (explore)"
		;;
	*) log "unknown data set $set (want lubm8, lubm80 or bsbm1m)"; exit 2 ;;
	esac
	load_before=$(cut -d' ' -f1-3 /proc/loadavg)
	log "$set: decompressing"
	zcat "$gz" >"$WORK/data.nt"
	triples=$(wc -l <"$WORK/data.nt")

	log "$set: mneme load"
	rm -rf "$WORK/store"
	"$WORK/mneme" load --store "$WORK/store" "$WORK/data.nt" >/dev/null 2>&1
	start_mneme
	BSBM_PARAMS=""
	[ "$set" != bsbm1m ] || bsbm_params
	queries=("$WORK"/queries/*.rq)
	log "$set: mneme queries"
	"$WORK/querybench" -endpoint "http://$MADDR/sparql" -runs "$RUNS" "${queries[@]}" >"$WORK/mneme.tsv" || true
	stop_mneme
	rm -rf "$WORK/store"

	log "$set: Virtuoso load"
	start_virtuoso
	vsql "ld_dir('$WORK', 'data.nt', 'http://bench.example/$set');" >/dev/null
	vsql "rdf_loader_run();" >/dev/null
	vsql "checkpoint;" >/dev/null
	log "$set: Virtuoso queries"
	"$WORK/querybench" -endpoint "http://127.0.0.1:$VHTTP/sparql" -runs "$RUNS" "${queries[@]}" >"$WORK/virtuoso.tsv" || true
	stop_virtuoso
	rm -rf "$WORK/virtuoso"

	if [ "${OXIGRAPH:-on}" = off ]; then
		log "$set: Oxigraph left out (OXIGRAPH=off)"
		: >"$WORK/oxigraph.tsv"
	else
		log "$set: Oxigraph"
		oxigraph_node "$ROOT/scripts/bench/oxigraph-query.js" "$WORK/data.nt" "$RUNS" "${queries[@]}" >"$WORK/oxigraph.tsv" || true
	fi
	rm -f "$WORK/data.nt"
	load_after=$(cut -d' ' -f1-3 /proc/loadavg)

	block=$(mktemp)
	{
		echo "### $title"
		echo
		echo "$triples triples. Run $(date -u '+%Y-%m-%d %H:%M UTC'), median of $RUNS warm runs; load average $load_before before, $load_after after."
		[ -z "$BSBM_PARAMS" ] || echo "Parameters: $BSBM_PARAMS; x = 500, y = 1500, currentDate 2008-06-20T00:00:00."
		echo
		echo "| query | rows | mneme ms | Virtuoso 7 ms | Oxigraph-JS ms | mneme / Virtuoso |"
		echo "|---|---|---|---|---|---|"
		awk -F'\t' -v vf="$WORK/virtuoso.tsv" -v of="$WORK/oxigraph.tsv" '
			BEGIN {
				while ((getline l < vf) > 0) { split(l, a, "\t"); vr[a[1]] = a[2]; vt[a[1]] = a[3] }
				while ((getline l < of) > 0) { split(l, a, "\t"); or_[a[1]] = a[2]; ot[a[1]] = a[3] }
			}
			{
				q = $1; rows = $2
				if (!(q in or_)) { or_[q] = rows; ot[q] = "not run" }
				if (vr[q] != rows || or_[q] != rows) rows = rows " / " vr[q] " / " or_[q] " (differ)"
				ratio = "-"
				if ($3 != "-" && vt[q] != "-" && vt[q] > 0) {
					r = $3 / vt[q]; ratio = sprintf("%.2f", r)
					if (r > worst) { worst = r; wq = q }
					n++; if (r <= 2) ok++
				}
				printf "| %s | %s | %s | %s | %s | %s |\n", q, rows, $3, vt[q], ot[q], ratio
			}
			END {
				printf "\nWithin 2× of Virtuoso: %d of %d queries; worst ratio %.2f (%s).\n", ok, n, worst, wq
			}' "$WORK/mneme.tsv"
	} >"$block"
	BLOCKS[$set]=$block
	log "$set: done"
	cat "$block" >&2
done

# --- report ------------------------------------------------------------
doc=$ROOT/docs/benchmarks.md
[ -f "$doc" ] || printf '# Benchmarks\n\n' >"$doc"
. "$ROOT/scripts/lib/docs.sh"
intro=$(mktemp)
cat >"$intro" <<EOF
## SPARQL queries

Command: \`scripts/bench-query.sh [lubm8 lubm80 bsbm1m]\` on $MACHINE, with other work running on the
machine (the load average is given with each table: wall-clock figures are upper bounds). Each data set is
loaded into each system, then every query runs once to warm up and several more times (the number is given
with each table; 2 when the warm-up took over 10 s); the table gives the median of those warm runs. mneme (\`mneme serve\`) and Virtuoso $(dpkg-query -W -f='${Version}' virtuoso-opensource-7)
(NumberOfBuffers 680000, no row or time caps) answer over HTTP on loopback, timed by
\`scripts/bench/querybench\` from the request to the last byte of the answer (SPARQL JSON; Turtle for
CONSTRUCT and DESCRIBE). Oxigraph $OXIGRAPH_VERSION (npm, JS/WASM, in memory) has no server: it is timed in
process by \`scripts/bench/oxigraph-query.js\`, the whole answer materialized. Rows are the solutions (1 or 0
for ASK, triples for graphs); when the systems disagree the cell lists mneme / Virtuoso / Oxigraph. The
default graph is the whole data set in every system. LUBM expected row counts are in
\`../shared/data/bench/README.md\`.
EOF
put_block queries scripts/bench-query.sh "$intro"
for set in "${SETS[@]}"; do
	put_block "queries-$set" scripts/bench-query.sh "${BLOCKS[$set]}"
done
log "wrote $doc"
