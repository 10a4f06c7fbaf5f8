#!/usr/bin/env bash
# Query benchmark: mneme vs Virtuoso 7 vs Oxigraph (JS/WASM build), one
# after the other on the same data and the same query files, in one run,
# with every answer checked against the peers'.
# Writes one table per data set and workload to the "SPARQL queries"
# section of docs/benchmarks.md (between the queries markers).
#
# Usage: scripts/bench-query.sh [DATASET...]   (lubm8 lubm80 bsbm1m; default: all)
# Environment: RUNS (timed warm runs per query, default 5), BENCH_DIR,
# OXIGRAPH=off to leave Oxigraph out (its in-memory load of LUBM(80) takes
# most of an hour here; the table then says it was not run), WORKLOADS
# (default "standard features"), ONLY (an extended regular expression:
# only the queries whose names match), SEED (the BSBM BI parameters,
# default 1), NODOCS=1 to print the tables without writing the docs,
# VPORT, VHTTP and MADDR (Virtuoso's SQL and HTTP ports, mneme's address)
# to run beside another run, KEEP=1 to keep the loaded stores (mneme's and
# Virtuoso's, per data set, under BENCH_DIR/keep) and reuse them in the
# next KEEP=1 run with the same BENCH_DIR: mneme is rebuilt and queried on
# the kept store, so iterating on the query engine skips the loads (remove
# the folder after a change of the store's format; it is never removed
# by the script).
#
# Workloads (../shared/data/bench; scripts/bench/queries):
#   standard  LUBM(N): q1, q2, qc and the 14 inference-free LUBM queries
#             (plus q11b); BSBM 1M: the explore templates 1-12 but 6
#             (ignoreQueries.txt), parameters picked by bsbm_params.
#   features  LUBM(N): the feature workload, scripts/bench/queries/
#             lubm-features (property paths with one end bound and both
#             free, MINUS, NOT EXISTS, OPTIONAL chains, GROUP BY/HAVING,
#             subqueries, ORDER BY … LIMIT, casts and string functions);
#             BSBM 1M: the Business Intelligence templates 1-8,
#             parameters drawn from the data by bsbm_bi_params.
#
# Timing: mneme (`mneme serve`) and Virtuoso answer over HTTP, both timed
# by scripts/bench/querybench: one warm-up run, then RUNS runs, from the
# request to the last byte of the answer (SPARQL JSON; Turtle for graphs),
# median reported. Oxigraph has no server in its JS build: it is timed in
# process (scripts/bench/oxigraph-query.js), the whole answer materialized.
# The warm-up answers of the three are compared by
# scripts/bench/answercheck.
set -euo pipefail
shopt -s nullglob

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=$ROOT/../shared/data/bench
WORK=${BENCH_DIR:-/tmp/mneme-bench-query}
RUNS=${RUNS:-5}
WORKLOADS=${WORKLOADS:-standard features}
SEED=${SEED:-1}
SETS=("$@")
[ ${#SETS[@]} -gt 0 ] || SETS=(lubm8 lubm80 bsbm1m)
VPORT=${VPORT:-11312}
VHTTP=${VHTTP:-18892}
MADDR=${MADDR:-127.0.0.1:17879}

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
if [ -n "${KEEP:-}" ]; then
	trap 'stop_mneme; stop_virtuoso; rm -rf "$WORK/data.nt" "$WORK/queries" "$WORK/answers"' EXIT
else
	trap 'stop_mneme; stop_virtuoso; rm -rf "$WORK"' EXIT
fi

. "$ROOT/scripts/lib/peers.sh"
install_peers
log "building mneme and querybench"
(cd "$ROOT" && go build -o "$WORK/mneme" ./cmd/mneme && go build -o "$WORK/querybench" ./scripts/bench/querybench &&
	go build -o "$WORK/answercheck" ./scripts/bench/answercheck)

start_mneme() {
	# Emptied here, not only by the redirection in the child, so that
	# the wait below cannot read the previous data set's "at http://".
	: >"$WORK/serve.log"
	"$WORK/mneme" serve --store "$MSTORE" --addr "$MADDR" --timeout 30m --max-rows -1 2>"$WORK/serve.log" &
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

# bsbm_params instantiates the explore templates into $WORK/queries/standard with
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
			"$SHARED/bsbm/queries/explore/query$n.txt" >"$WORK/queries/standard/bsbm-q$(printf %02d "$n").rq"
	done
}

# cells runs a query on mneme serve and prints the first column of every
# row of the answer, in N-Triples form.
cells() {
	curl -sf -H 'Accept: text/tab-separated-values' --data-urlencode "query=$1" "http://$MADDR/sparql" |
		awk -F'\t' 'NR > 1 { print $1 }'
}

# pick N sets PICK to the next number in [0, N) of a generator seeded
# with SEED (a 63-bit LCG in shell arithmetic: the same picks on every
# machine).
RNG=$SEED
pick() {
	RNG=$(((RNG * 6364136223846793005 + 1442695040888963407) & 0x7fffffffffffffff))
	PICK=$(((RNG >> 17) % $1))
}

# choose QUERY sets CHOSEN to one of the first-column values of QUERY's
# answer (which must be ordered), picked by the seeded generator.
choose() {
	local -a vals
	mapfile -t vals < <(cells "$1")
	[ ${#vals[@]} -gt 0 ] || { log "BSBM BI: no candidates from: $1"; return 1; }
	pick ${#vals[@]}
	CHOSEN=${vals[$PICK]}
}

# bsbm_bi_params instantiates the Business Intelligence templates into
# $WORK/queries/features, their parameters drawn from the loaded data by
# the seeded generator: countries among all bsbm:country values; the
# product and the producer among all; the months among those with reviews
# (dc:date), the first of three consecutive ones; the product types among
# those that type products. The data carries only the leaf type of each
# product (no inference), so the templates' ranges of type levels are all
# read as "a type of products".
bsbm_bi_params() {
	local pre='PREFIX bsbm: <http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/vocabulary/>
PREFIX dc: <http://purl.org/dc/elements/1.1/>'
	local countries="$pre SELECT DISTINCT ?c WHERE { ?x bsbm:country ?c } ORDER BY ?c"
	local types="$pre SELECT DISTINCT ?t WHERE { ?p a bsbm:Product ; a ?t . ?t a bsbm:ProductType } ORDER BY ?t"
	local c1 c2 c3 product producer type1 type2 m0 m1 m2
	choose "$countries" && c1=$CHOSEN
	choose "$countries" && c2=$CHOSEN
	choose "$countries" && c3=$CHOSEN
	choose "$pre SELECT ?p WHERE { ?p a bsbm:Product } ORDER BY ?p" && product=$CHOSEN
	choose "$pre SELECT ?p WHERE { ?p a bsbm:Producer } ORDER BY ?p" && producer=$CHOSEN
	choose "$types" && type1=$CHOSEN
	choose "$types" && type2=$CHOSEN
	local -a months
	mapfile -t months < <(cells "$pre SELECT DISTINCT ?d WHERE { ?r bsbm:reviewFor ?p ; dc:date ?d } ORDER BY ?d" |
		cut -c2-8 | uniq | head -n -2)
	[ ${#months[@]} -gt 0 ] || { log "BSBM BI: no review months"; return 1; }
	pick ${#months[@]}
	m0=${months[$PICK]}-01
	m1=$(date -u -d "$m0 +1 month" +%F) m2=$(date -u -d "$m0 +2 month" +%F)
	BSBM_BI_PARAMS="seed $SEED: Country1 $c1, Country2 $c2, Country $c3, Product $product, Producer $producer, ProductType $type1 (queries 4, 5) and $type2 (7, 8), months $m0 $m1 $m2"
	log "BSBM BI parameters: $BSBM_BI_PARAMS"
	local n t
	for n in 1 2 3 4 5 6 7 8; do
		t=$type1
		[ "$n" -lt 7 ] || t=$type2
		sed -e "s|%Country1%|$c1|g" -e "s|%Country2%|$c2|g" -e "s|%Country%|$c3|g" \
			-e "s|%Product%|$product|g" -e "s|%Producer%|$producer|g" -e "s|%ProductType%|$t|g" \
			-e "s|%ConsecutiveMonth_0%|$m0|g" -e "s|%ConsecutiveMonth_1%|$m1|g" -e "s|%ConsecutiveMonth_2%|$m2|g" \
			"$SHARED/bsbm/queries/bi/query$n.txt" >"$WORK/queries/features/bsbm-bi-q$n.rq"
	done
}

# table WORKLOAD prints the table of one workload's queries from the
# three systems' timings and the answer check, with the worst ratio to
# Virtuoso and the geometric mean of the ratios.
table() {
	local names
	names=$(for f in "$WORK/queries/$1"/*.rq; do basename "$f" .rq; done)
	echo "| query | rows | mneme ms | Virtuoso 7 ms | Oxigraph-JS ms | mneme / Virtuoso | answers |"
	echo "|---|---|---|---|---|---|---|"
	echo "$names" | awk -F'\t' -v mf="$WORK/mneme.tsv" -v vf="$WORK/virtuoso.tsv" -v of="$WORK/oxigraph.tsv" -v cf="$WORK/answers.tsv" '
		BEGIN {
			while ((getline l < mf) > 0) { split(l, a, "\t"); mr[a[1]] = a[2]; mt[a[1]] = a[3] }
			while ((getline l < vf) > 0) { split(l, a, "\t"); vr[a[1]] = a[2]; vt[a[1]] = a[3] }
			while ((getline l < of) > 0) { split(l, a, "\t"); or_[a[1]] = a[2]; ot[a[1]] = a[3] }
			while ((getline l < cf) > 0) { split(l, a, "\t"); ck[a[1]] = a[2] }
		}
		{
			q = $1; rows = (q in mr) ? mr[q] : "-"
			if (!(q in or_)) { or_[q] = rows; ot[q] = "not run" }
			if (vr[q] != rows || or_[q] != rows) rows = rows " / " vr[q] " / " or_[q]
			ratio = "-"
			if (mt[q] != "" && mt[q] != "-" && vt[q] != "" && vt[q] != "-" && vt[q] > 0) {
				r = mt[q] / vt[q]; ratio = sprintf("%.2f", r)
				if (r > worst) { worst = r; wq = q }
				n++; logsum += log(r)
				if (r <= 1.5) ok++; else over = over " " q " (" ratio ")"
			} else missing = missing " " q
			printf "| %s | %s | %s | %s | %s | %s | %s |\n", q, rows, mt[q], vt[q], ot[q], ratio, (q in ck) ? ck[q] : "-"
		}
		END {
			if (n > 0) printf "\nWithin 1.5× of Virtuoso: %d of %d queries; worst ratio %.2f (%s); geometric mean %.2f.\n", ok, n, worst, wq, exp(logsum / n)
			if (over != "") printf "Above 1.5×:%s.\n", over
			if (missing != "") printf "No ratio (a system failed):%s.\n", missing
		}'
}

# --- runs --------------------------------------------------------------
MACHINE="$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(free -g | awk '/Mem:/ {print $2}') GiB RAM"
declare -A BLOCKS
BLOCK_NAMES=()

for set in "${SETS[@]}"; do
	rm -rf "$WORK/queries" "$WORK/answers" && mkdir -p "$WORK/queries" "$WORK/answers"/{mneme,virtuoso,oxigraph}
	case $set in
	lubm*)
		n=${set#lubm}
		gz=$SHARED/lubm/lubm-univ$n-seed0.nt.gz
		title="LUBM($n)"
		;;
	bsbm1m)
		gz=$SHARED/bsbm/bsbm1m.nt.gz
		title="BSBM 1M"
		;;
	*) log "unknown data set $set (want lubm8, lubm80 or bsbm1m)"; exit 2 ;;
	esac
	for wl in $WORKLOADS; do
		mkdir -p "$WORK/queries/$wl"
		case $set/$wl in
		lubm*/standard) cp "$SHARED"/lubm/q1.rq "$SHARED"/lubm/q2.rq "$SHARED"/lubm/qc.rq "$SHARED"/lubm/lubm-q*.rq "$WORK/queries/standard/" ;;
		lubm*/features) cp "$ROOT"/scripts/bench/queries/lubm-features/*.rq "$WORK/queries/features/" ;;
		bsbm1m/standard | bsbm1m/features) ;; # instantiated from the data below
		*) log "unknown workload $wl (want standard or features)"; exit 2 ;;
		esac
	done
	# With KEEP a store is loaded once, marked loaded when complete.
	MSTORE=$WORK/store VDIR=$WORK/virtuoso VREUSE=""
	if [ -n "${KEEP:-}" ]; then
		MSTORE=$WORK/keep/$set/mneme VDIR=$WORK/keep/$set/virtuoso
		mkdir -p "$WORK/keep/$set"
	fi
	load_before=$(cut -d' ' -f1-3 /proc/loadavg)
	if [ -z "${KEEP:-}" ] || [ ! -e "$MSTORE.loaded" ] || [ ! -e "$VDIR.loaded" ] || [ "${OXIGRAPH:-on}" != off ]; then
		log "$set: decompressing"
		zcat "$gz" >"$WORK/data.nt"
		wc -l <"$WORK/data.nt" >"$WORK/$set.triples"
	fi
	triples=$(cat "$WORK/$set.triples")

	if [ -n "${KEEP:-}" ] && [ -e "$MSTORE.loaded" ]; then
		log "$set: mneme store kept from a previous run ($MSTORE)"
	else
		log "$set: mneme load"
		rm -rf "$MSTORE" "$MSTORE.loaded"
		# The load's report (statements read, skipped lines) is kept to
		# check against the file's line count.
		"$WORK/mneme" load --store "$MSTORE" "$WORK/data.nt" >"$WORK/$set.load.log" 2>&1 || { log "$set: mneme load failed, see $WORK/$set.load.log"; exit 1; }
		: >"$MSTORE.loaded"
	fi
	start_mneme
	BSBM_PARAMS="" BSBM_BI_PARAMS=""
	if [ "$set" = bsbm1m ]; then
		[[ " $WORKLOADS " != *" standard "* ]] || bsbm_params
		[[ " $WORKLOADS " != *" features "* ]] || bsbm_bi_params
	fi
	queries=()
	for wl in $WORKLOADS; do
		for f in "$WORK/queries/$wl"/*.rq; do
			[ -z "${ONLY:-}" ] || [[ $(basename "$f" .rq) =~ $ONLY ]] || { rm "$f"; continue; }
			queries+=("$f")
		done
	done
	log "$set: mneme queries"
	"$WORK/querybench" -endpoint "http://$MADDR/sparql" -runs "$RUNS" -answers "$WORK/answers/mneme" "${queries[@]}" >"$WORK/mneme.tsv" || true
	stop_mneme
	[ -n "${KEEP:-}" ] || rm -rf "$MSTORE"

	if [ -n "${KEEP:-}" ] && [ -e "$VDIR.loaded" ]; then
		log "$set: Virtuoso database kept from a previous run ($VDIR)"
		VREUSE=1 start_virtuoso
	else
		log "$set: Virtuoso load"
		rm -f "$VDIR.loaded"
		start_virtuoso
		vsql "ld_dir('$WORK', 'data.nt', 'http://bench.example/$set');" >/dev/null
		vsql "rdf_loader_run();" >/dev/null
		vsql "checkpoint;" >/dev/null
		[ -z "${KEEP:-}" ] || : >"$VDIR.loaded"
	fi
	log "$set: Virtuoso queries"
	"$WORK/querybench" -endpoint "http://127.0.0.1:$VHTTP/sparql" -runs "$RUNS" -answers "$WORK/answers/virtuoso" "${queries[@]}" >"$WORK/virtuoso.tsv" || true
	stop_virtuoso
	[ -n "${KEEP:-}" ] || rm -rf "$VDIR"

	if [ "${OXIGRAPH:-on}" = off ]; then
		log "$set: Oxigraph left out (OXIGRAPH=off)"
		: >"$WORK/oxigraph.tsv"
	else
		log "$set: Oxigraph"
		ANSWERS="$WORK/answers/oxigraph" oxigraph_node "$ROOT/scripts/bench/oxigraph-query.js" "$WORK/data.nt" "$RUNS" "${queries[@]}" >"$WORK/oxigraph.tsv" || true
	fi
	rm -f "$WORK/data.nt"
	load_after=$(cut -d' ' -f1-3 /proc/loadavg)
	"$WORK/answercheck" "$WORK/answers/mneme" "$WORK/answers/virtuoso" "$WORK/answers/oxigraph" >"$WORK/answers.tsv" || true

	for wl in $WORKLOADS; do
		block=$(mktemp)
		case $set/$wl in
		*/standard) name=$set wtitle=$title ;;
		lubm*/features) name=$set-features wtitle="$title, feature workload" ;;
		bsbm1m/features) name=$set-bi wtitle="$title, Business Intelligence" ;;
		esac
		[ "$set/$wl" != bsbm1m/standard ] || wtitle="$title (explore)"
		{
			echo "### $wtitle"
			echo
			echo "$triples triples. Run $(date -u '+%Y-%m-%d %H:%M UTC'), median of $RUNS warm runs; load average $load_before before, $load_after after."
			[ "$set/$wl" != bsbm1m/standard ] || echo "Parameters: $BSBM_PARAMS; x = 500, y = 1500, currentDate 2008-06-20T00:00:00."
			[ "$set/$wl" != bsbm1m/features ] || echo "Parameters ($(basename "$0") bsbm_bi_params), $BSBM_BI_PARAMS."
			echo
			table "$wl"
		} >"$block"
		BLOCKS[$name]=$block
		BLOCK_NAMES+=("$name")
		log "$set $wl: done"
		cat "$block" >&2
	done
done

# --- report ------------------------------------------------------------
if [ -n "${NODOCS:-}" ]; then
	log "NODOCS set: docs/benchmarks.md left as it was"
	exit 0
fi
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

Two workloads per data set: the standard queries (LUBM's, BSBM explore) and the feature workload (on LUBM,
\`scripts/bench/queries/lubm-features\`: property paths with one end bound and both free, MINUS, NOT
EXISTS, OPTIONAL chains, GROUP BY/HAVING, subqueries, ORDER BY … LIMIT, casts and string functions; on
BSBM, the Business Intelligence templates with parameters drawn from the data by a seeded generator).
The answers column compares the three systems' answers to the warm-up run (\`scripts/bench/answercheck\`:
bags of solutions, numbers by value to 6 digits): *agree* when all that answered agree, *differs V* (or
*O*) when mneme agrees with one peer and not the other, **DIFFERS (V = O)** when mneme alone differs.
Each table ends with the worst ratio to Virtuoso and the geometric mean of the ratios.
EOF
put_block queries scripts/bench-query.sh "$intro"
for name in "${BLOCK_NAMES[@]}"; do
	put_block "queries-$name" scripts/bench-query.sh "${BLOCKS[$name]}"
done
log "wrote $doc"
