#!/usr/bin/env bash
# Loading benchmark: mneme load vs Virtuoso 7 (ld_dir + rdf_loader_run) vs
# Oxigraph (JS/WASM build, in-memory), run one after the other on the
# same decompressed N-Triples files, in one run. Writes the figures to the
# "Loading" section of docs/benchmarks.md (between the loading markers).
#
# Usage: scripts/bench-load.sh [SIZE...]   (LUBM sizes, default: 8 80)
#        scripts/bench-load.sh --into-full [ROUNDS] [BEFORE]
#
# --into-full measures loading into a store that already holds data: LUBM(80)
# is split by university (the subject's), universities 0-71 and BSBM 1M
# make a base store of 10.6M quads, universities 72-79 (1.1M quads, new
# entities, shared vocabulary) are the slice. Each round loads the slice
# into an empty store and into a copy of the base store, with mneme built
# at HEAD and at BEFORE (default main), interleaved, and writes the
# "Loading into a full store" section (between the load-full markers).
# Needs ../shared/data/bench/lubm beside the repository; installs
# virtuoso-opensource-7 (apt) and oxigraph (npm) when missing. Work files
# go to $BENCH_DIR (default /tmp/mneme-bench-load) and are deleted at the
# end: LUBM(80) is 1.9 GB decompressed.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DATA=$ROOT/../shared/data/bench/lubm
WORK=${BENCH_DIR:-/tmp/mneme-bench-load}
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(8 80)
VPORT=11311
VHTTP=18891

log() { echo "bench-load: $*" >&2; }

[ -d "$DATA" ] || { log "no benchmark data in $DATA"; exit 1; }

# --- loading into a full store ------------------------------------------
# replace_section NAME FILE: puts FILE between NAME's markers in
# docs/benchmarks.md (appended when the markers are missing).
replace_section() {
	local doc=$ROOT/docs/benchmarks.md
	if grep -q "<!-- $1:begin" "$doc"; then
		awk -v f="$2" -v b="<!-- $1:begin" -v e="<!-- $1:end -->" '
			index($0, b) == 1 { while ((getline l < f) > 0) print l; skip = 1; next }
			index($0, e) == 1 { skip = 0; next }
			!skip { print }' "$doc" >"$doc.new" && mv "$doc.new" "$doc"
	else
		{ echo; cat "$2"; } >>"$doc"
	fi
}

into_full() {
	local rounds=${1:-2} before=${2:-main}
	local work=${BENCH_DIR:-/tmp/mneme-bench-load-full}
	mkdir -p "$work"
	trap "rm -rf '$work'" EXIT # expanded now: work is local to this function
	local after_rev before_rev
	after_rev=$(git -C "$ROOT" rev-parse --short HEAD)
	before_rev=$(git -C "$ROOT" rev-parse --short "$before")
	log "building mneme at $after_rev (HEAD) and $before_rev ($before)"
	(cd "$ROOT" && go build -o "$work/mneme-after" ./cmd/mneme)
	mkdir -p "$work/src-before"
	git -C "$ROOT" archive "$before_rev" | tar -x -C "$work/src-before"
	(cd "$work/src-before" && go build -o "$work/mneme-before" ./cmd/mneme)
	rm -rf "$work/src-before"

	log "splitting LUBM(80) by university"
	zcat "$DATA/lubm-univ80-seed0.nt.gz" | awk -v base="$work/base.nt" -v slice="$work/slice.nt" '{
		u = $1; sub(/^.*University/, "", u); sub(/\.edu.*/, "", u)
		print > (u + 0 < 72 ? base : slice) }'
	zcat "$DATA/../bsbm/bsbm1m.nt.gz" >>"$work/base.nt"
	local nbase nslice
	nbase=$(wc -l <"$work/base.nt") nslice=$(wc -l <"$work/slice.nt")
	log "base store: $nbase quads"
	"$work/mneme-after" load --store "$work/base" --graph http://bench.example/base "$work/base.nt" >/dev/null 2>&1
	rm -f "$work/base.nt"

	local rows=() bin store secs user sys rss la
	for r in $(seq "$rounds"); do
		for v in before after; do
			for into in empty full; do
				rm -rf "$work/store"
				[ "$into" = full ] && cp -a "$work/base" "$work/store"
				la=$(cut -d' ' -f1 /proc/loadavg)
				log "round $r: $v into $into store (load average $la)"
				/usr/bin/time -f "%e %U %S %M" -o "$work/time.out" \
					"$work/mneme-$v" load --store "$work/store" --graph http://bench.example/slice "$work/slice.nt" >/dev/null 2>&1
				read -r secs user sys rss <"$work/time.out"
				if [ "$r" = 1 ] && [ "$into" = full ]; then
					"$work/mneme-$v" store check "$work/store" >/dev/null
					"$work/mneme-$v" store stats "$work/store" >"$work/stats-$v.out"
				fi
				rows+=("$r $v $into $secs $(calc "$user + $sys") $((rss / 1024)) $la")
				log "round $r: $v into $into: ${secs}s wall, $(calc "$user + $sys")s CPU"
			done
		done
	done
	local stats_note="the two builds' full stores have different \`store stats\`"
	cmp -s "$work/stats-before.out" "$work/stats-after.out" && stats_note="both builds' full stores pass \`store check\` and have identical \`store stats\`"

	local section
	section=$(mktemp)
	{
		echo "<!-- load-full:begin (written by scripts/bench-load.sh --into-full) -->"
		echo "### Loading into a full store"
		echo
		echo "Run $(date -u '+%Y-%m-%d %H:%M UTC') on $MACHINE; command \`scripts/bench-load.sh --into-full $rounds $before\`;"
		echo "mneme at $after_rev (after) and $before_rev (before). The slice (LUBM(80) universities 72-79, $nslice quads,"
		echo "graph \`http://bench.example/slice\`) is loaded into an empty store and into a copy of a store of $nbase quads"
		echo "(universities 0-71 and BSBM 1M), the four loads of a round one after the other; $stats_note."
		echo "CPU s is user + system time: with other work on the machine (see the load average, 2 cores)"
		echo "wall-clock figures vary from one load to the next, CPU time much less."
		echo
		echo "| round | mneme | into | load avg | wall s | quads/s | CPU s | quads per CPU s | peak RSS MB |"
		echo "|---|---|---|---|---|---|---|---|---|"
		local row
		for row in "${rows[@]}"; do
			set -- $row
			printf '| %s | %s | %s | %s | %.1f | %.0f | %.1f | %.0f | %s |\n' "$1" "$2" "$3" "$7" "$4" "$(calc "$nslice / $4")" "$5" "$(calc "$nslice / $5")" "$6"
		done
		echo
		echo "Full-store rate as a share of the empty-store rate (same build, same round; wall, then CPU):"
		for v in before after; do
			local line="$v:"
			for r in $(seq "$rounds"); do
				local e f
				e=$(printf '%s\n' "${rows[@]}" | awk -v r="$r" -v v="$v" '$1 == r && $2 == v && $3 == "empty" {print $4, $5}')
				f=$(printf '%s\n' "${rows[@]}" | awk -v r="$r" -v v="$v" '$1 == r && $2 == v && $3 == "full" {print $4, $5}')
				line+=" round $r $(calc "100 * ${e% *} / ${f% *}" | xargs printf '%.0f')% wall, $(calc "100 * ${e#* } / ${f#* }" | xargs printf '%.0f')% CPU;"
			done
			echo "- ${line%;}"
		done
		echo "<!-- load-full:end -->"
	} >"$section"
	replace_section load-full "$section"
	rm -f "$section"
	log "wrote $ROOT/docs/benchmarks.md"
}

if [ "${1:-}" = --into-full ]; then
	now() { date +%s.%N; }
	calc() { awk "BEGIN { print $* }"; }
	MACHINE="$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(free -g | awk '/Mem:/ {print $2}') GiB RAM"
	into_full "${2:-}" "${3:-}"
	exit 0
fi
mkdir -p "$WORK"
on_exit() {
	local status=$?
	if [ "$status" -ne 0 ]; then
		log "failed (exit $status); last lines of the logs:"
		tail -n 5 "$WORK/isql.log" "$WORK/virtuoso/virtuoso.log" >&2 2>/dev/null || true
	fi
	stop_virtuoso
	rm -rf "$WORK"
}
trap on_exit EXIT

# --- tools -------------------------------------------------------------
. "$ROOT/scripts/lib/peers.sh"
install_peers
log "building mneme"
(cd "$ROOT" && go build -o "$WORK/mneme" ./cmd/mneme)

# measure CMD...: runs it under /usr/bin/time; sets SECS and RSS_MB.
measure() {
	local tf=$WORK/time.out
	/usr/bin/time -f "%e %M" -o "$tf" "$@"
	read -r SECS RSS_KB <"$tf"
	RSS_MB=$((RSS_KB / 1024))
}

now() { date +%s.%N; }
calc() { awk "BEGIN { print $* }"; }

# --- runs --------------------------------------------------------------
ROWS=()
STATS_NOTE=""
MACHINE="$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(free -g | awk '/Mem:/ {print $2}') GiB RAM"
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)

for n in "${SIZES[@]}"; do
	gz=$DATA/lubm-univ$n-seed0.nt.gz
	nt=$WORK/lubm$n.nt
	log "LUBM($n): decompressing"
	zcat "$gz" >"$nt"
	expected=$(wc -l <"$nt")

	log "LUBM($n): mneme"
	rm -rf "$WORK/mneme-store"
	measure "$WORK/mneme" load --store "$WORK/mneme-store" "$nt" >"$WORK/mneme.out"
	m_secs=$SECS m_rss=$RSS_MB
	"$WORK/mneme" store stats "$WORK/mneme-store" >"$WORK/stats.out"
	m_count=$(awk '$1 == "triples" {print $2}' "$WORK/stats.out")
	if [ "$n" -le 8 ]; then
		# An independent count of what store stats says: distinct lines, and
		# per predicate quads, distinct subjects and distinct objects.
		log "LUBM($n): checking store stats against sort -u and awk"
		sort -u -S 512M "$nt" | awk '{
			s = $1; p = $2; o = $0; sub(/^[^ ]+ [^ ]+ /, "", o); sub(/ *\. *$/, "", o)
			n[p]++; total++
			if (!((p, s) in ps)) { ps[p, s] = 1; subj[p]++ }
			if (!((p, o) in po)) { po[p, o] = 1; obj[p]++ }
		} END {
			print "triples\t" total
			for (p in n) print p "\t" n[p] "\t" subj[p] "\t" obj[p]
		}' | sort >"$WORK/independent.out"
		awk -F'\t' '$1 == "triples" { print } NF == 5 && $1 ~ /^</ { print $1 "\t" $2 "\t" $4 "\t" $5 }' "$WORK/stats.out" | sort >"$WORK/mine.out"
		if diff "$WORK/independent.out" "$WORK/mine.out" >"$WORK/stats.diff"; then
			STATS_NOTE="\`mneme store stats\` on LUBM($n) matches an independent count (\`sort -u\` + awk): $m_count triples; quads, distinct subjects and distinct objects of all $(($(wc -l <"$WORK/mine.out") - 1)) predicates agree."
		else
			STATS_NOTE="\`mneme store stats\` on LUBM($n) DIFFERS from the independent count: $(head -5 "$WORK/stats.diff" | tr '\n' ' ')"
		fi
	fi
	m_bytes=$(du -sb "$WORK/mneme-store" | cut -f1)
	"$WORK/mneme" store check "$WORK/mneme-store" >/dev/null
	rm -rf "$WORK/mneme-store"

	log "LUBM($n): Virtuoso"
	start_virtuoso
	vsql "ld_dir('$WORK', 'lubm$n.nt', 'http://lubm.example/$n');" >/dev/null
	t0=$(now)
	vsql "rdf_loader_run();" >/dev/null
	t1=$(now)
	vsql "checkpoint;" >/dev/null
	t2=$(now)
	v_rss=$(virtuoso_rss_mb)
	v_count=$(vsql "SPARQL SELECT COUNT(*) FROM <http://lubm.example/$n> WHERE { ?s ?p ?o };" | awk '/^[0-9]+ *$/ {print $1; exit}')
	v_bytes=$(du -sb "$WORK/virtuoso" | cut -f1)
	stop_virtuoso
	v_load=$(calc "$t1 - $t0") v_total=$(calc "$t2 - $t0")

	log "LUBM($n): Oxigraph"
	measure env NODE_PATH="$WORK/oxigraph/node_modules" node --max-old-space-size=16384 \
		"$ROOT/scripts/bench/oxigraph-load.js" "$nt" >"$WORK/oxi.out"
	o_secs=$(sed 's/.*"seconds":\([0-9.]*\).*/\1/' "$WORK/oxi.out")
	o_count=$(sed 's/.*"triples":\([0-9]*\).*/\1/' "$WORK/oxi.out")
	o_rss=$RSS_MB
	rm -f "$nt"

	ROWS+=("$(printf '| LUBM(%s) | mneme load | %.1f | %.0f | %s | %s | %.0f B | %s |' "$n" "$m_secs" "$(calc "$expected / $m_secs")" "$m_rss" "$m_count" "$(calc "$m_bytes / $expected")" "$(printf '%.2f× Virtuoso load, %.2f× load+checkpoint' "$(calc "$v_load / $m_secs")" "$(calc "$v_total / $m_secs")")")")
	ROWS+=("$(printf '| LUBM(%s) | Virtuoso 7 rdf_loader_run | %.1f (+checkpoint: %.1f) | %.0f | %s | %s | %.0f B | |' "$n" "$v_load" "$v_total" "$(calc "$expected / $v_load")" "$v_rss" "$v_count" "$(calc "$v_bytes / $expected")")")
	ROWS+=("$(printf '| LUBM(%s) | Oxigraph %s JS/WASM, in memory | %.1f | %.0f | %s | %s | (memory) | |' "$n" "$OXIGRAPH_VERSION" "$o_secs" "$(calc "$expected / $o_secs")" "$o_rss" "$o_count")")
	log "LUBM($n): mneme ${m_secs}s, Virtuoso ${v_load}s (${v_total}s with checkpoint), Oxigraph ${o_secs}s"
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

# --- report ------------------------------------------------------------
section=$(mktemp)
{
	echo "<!-- loading:begin (written by scripts/bench-load.sh) -->"
	echo "## Loading"
	echo
	echo "Run $(date -u '+%Y-%m-%d %H:%M UTC') on $MACHINE; load average $LOAD_BEFORE before, $LOAD_AFTER after"
	# A 1-minute load average above 1.5 before the run means other jobs shared the 2 cores.
	if awk -v l="${LOAD_BEFORE%% *}" 'BEGIN { exit !(l > 1.5) }'; then
		echo "(other work was running on the machine: wall-clock figures are upper bounds)."
	fi
	echo
	echo "Command: \`scripts/bench-load.sh ${SIZES[*]}\`. Each system loads the same decompressed N-Triples file"
	echo "into an empty store: \`mneme load --store DIR FILE\` (durable when it returns); Virtuoso"
	echo "$(dpkg-query -W -f='${Version}' virtuoso-opensource-7) with \`ld_dir\` + one \`rdf_loader_run()\`, then \`checkpoint\`"
	echo "(NumberOfBuffers 680000); Oxigraph $OXIGRAPH_VERSION from npm, \`Store.load\` in memory with \`no_transaction\`."
	echo "Peak RSS is the process's high-water mark (Virtuoso: the server's)."
	echo
	echo "| data | system | wall s | triples/s | peak RSS MB | triples in store | disk per triple | mneme speed-up |"
	echo "|---|---|---|---|---|---|---|---|"
	printf '%s\n' "${ROWS[@]}"
	if [ -n "$STATS_NOTE" ]; then echo; echo "$STATS_NOTE"; fi
	echo "<!-- loading:end -->"
} >"$section"

doc=$ROOT/docs/benchmarks.md
mkdir -p "$ROOT/docs"
[ -f "$doc" ] || printf '# Benchmarks\n\n' >"$doc"
if grep -q '<!-- loading:begin' "$doc"; then
	awk -v f="$section" '
		/<!-- loading:begin/ { while ((getline l < f) > 0) print l; skip = 1; next }
		/<!-- loading:end -->/ { skip = 0; next }
		!skip { print }' "$doc" >"$doc.new" && mv "$doc.new" "$doc"
else
	{ echo; cat "$section"; } >>"$doc"
fi
rm -f "$section"
log "wrote $doc"
