#!/usr/bin/env bash
# Detection benchmark: kb.Detector.Detect per page over the saved pages of
# ../shared/data/aah-pages with the built-in KB plus 0, 1, 100, 1,000 and
# all webappanalyzer fingerprints, and plus the fingerprints the pages
# hold with none, 1,000 or all of the others, against a naive peer (no
# literal index, every regex on its whole field) in the same run
# (BenchmarkDetect in kb/bench_test.go). Writes the figures to the
# "Application detection" section of docs/benchmarks.md (between the
# detection markers).
#
# Usage: scripts/bench-detect.sh [RUNS]   (benchmark runs, default 3; each
# configuration's figure is the median over the runs, with their range;
# a run's indexed detectors are interleaved, 20 iterations each, then the
# naive peer runs 3 iterations a configuration)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${1:-3}
ITER=20x
NAIVE_ITER=3x

log() { echo "bench-detect: $*" >&2; }

for d in "$ROOT/../shared/data/aah-pages" "$ROOT/../shared/data/fingerprints/webappanalyzer"; do
	[ -d "$d" ] || { log "missing $d"; exit 1; }
done

MACHINE="$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(go version | awk '{print $3}')"
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
out=$(mktemp)
log "running BenchmarkDetect ($RUNS runs of $ITER indexed, $NAIVE_ITER naive)"
for r in $(seq "$RUNS"); do
	(cd "$ROOT" && go test -run '^$' -bench '^BenchmarkDetect$/^indexed$' -benchtime "$ITER" ./kb/ &&
		go test -run '^$' -bench '^BenchmarkDetect$/^naive' -benchtime "$NAIVE_ITER" ./kb/) | tee -a "$out" >&2
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

# One row per detector: for each metric the median over the runs and,
# with several runs, their range. Table 1: the first N technologies;
# table 2: the technologies the pages hold, alone, with 1,000 others and
# with all (the last row of table 1).
tables=$(awk '
	function sortnum(a, n,    i, j, t) {
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	}
	function med(vals,    n, a) { n = split(vals, a, " "); sortnum(a, n); return a[int((n + 1) / 2)] }
	function fmt(vals,    n, a) {
		n = split(vals, a, " "); sortnum(a, n)
		if (n == 1) return sprintf("%.2f", a[1])
		return sprintf("%.2f (%.2f–%.2f)", a[int((n + 1) / 2)], a[1], a[n])
	}
	/^BenchmarkDetect\/indexed/ {
		# One line for all detectors: a unit ends in @types=N or @held-types=N.
		for (i = 3; i < NF; i += 2) {
			if (split($(i + 1), q, "@") != 2 || split(q[2], at, "=") != 2) continue
			key = at[1] SUBSEP at[2]
			if (!(key in seen)) { seen[key] = 1; if (at[1] == "types") types[++nt] = at[2]; else held[++nh] = at[2] }
			v[at[1], at[2], q[1]] = v[at[1], at[2], q[1]] " " $i
		}
	}
	/^BenchmarkDetect\/naive\// {
		split($1, p, "/"); n = p[3]; sub(/^types=/, "", n); sub(/-[0-9]+$/, "", n)
		for (i = 3; i < NF; i += 2) v["naive", n, $(i + 1)] = v["naive", n, $(i + 1)] " " $i
	}
	END {
		sortnum(types, nt); sortnum(held, nh)
		for (r = 1; r <= nt; r++) {
			n = types[r]
			printf "| %s | %s | %s | %s | %s | %s | %s |\n", n,
				fmt(v["types", n, "median-cpu-ms/page"]), fmt(v["types", n, "p90-cpu-ms/page"]),
				fmt(v["types", n, "median-ms/page"]), fmt(v["types", n, "median-cpu-ms/naive-page"]),
				fmt(v["naive", n, "median-cpu-ms/page"]), fmt(v["naive", n, "p90-cpu-ms/page"])
		}
		print "@@"
		base = med(v["held-types", held[1], "median-cpu-ms/page"])
		for (r = 1; r <= nh + 1; r++) {
			label = r <= nh ? "held-types" : "types"
			n = r <= nh ? held[r] : types[nt]
			m = med(v[label, n, "median-cpu-ms/page"])
			printf "| %s | %d | %s | %s | %.2f× |\n", n, n - held[1],
				fmt(v[label, n, "median-cpu-ms/page"]), fmt(v[label, n, "p90-cpu-ms/page"]), m / base
		}
	}' "$out")
table=${tables%%@@*}
table2=${tables##*@@}
rm -f "$out"

section=$(mktemp)
{
	echo "## Application detection"
	echo
	echo "Run $(date -u '+%Y-%m-%d %H:%M UTC') on $MACHINE; load average $LOAD_BEFORE before, $LOAD_AFTER after"
	# A 1-minute load average above 1.5 before the run means other jobs shared the 2 cores.
	if awk -v l="${LOAD_BEFORE%% *}" 'BEGIN { exit !(l > 1.5) }'; then
		echo "(other work was running on the machine: wall times are inflated; CPU times less so)."
	fi
	echo
	echo "Command: \`scripts/bench-detect.sh $RUNS\`, which runs $RUNS times"
	echo "\`go test -run '^\$' -bench '^BenchmarkDetect\$/^indexed\$' -benchtime $ITER ./kb/\` and"
	echo "\`go test -run '^\$' -bench '^BenchmarkDetect\$/^naive' -benchtime $NAIVE_ITER ./kb/\`."
	echo "\`kb.Detector.Detect\` per page over the 260 saved pages of \`../shared/data/aah-pages/\` with the"
	echo "built-in KB (17 types) plus the first N webappanalyzer technologies (name order), N = 0, 1, 100,"
	echo "1,000 and all 7,586. Pages are parsed beforehand (parsing is the crawler's cost, shared with link"
	echo "and object extraction); every detection starts from a document without its element index, so"
	echo "the walk that builds it and the lower-casing of the markup are counted, and every fingerprint"
	echo "technology is matched on every page. CPU is the benchmark thread's (\`CLOCK_THREAD_CPUTIME_ID\`)."
	echo "The seven indexed detectors (both series below) are interleaved: each iteration runs every one"
	echo "of them over all pages, starting one detector later each iteration, so that the machine's drift"
	echo "in speed (a quarter within minutes on this VM) weighs on all alike; a detector's figures are over"
	echo "all its iterations' pages. The naive peer, in the same run after them (first series), on every"
	echo "20th page (13 pages: it tries every regex on every page), tries each type's patterns in turn"
	echo "until one fires with no literal index, and every"
	echo "fingerprint pattern on the whole of its field (\`fingerprint.Set.MatchExhaustive\`); the"
	echo "indexed detector's median over those 13 pages is given beside it. Each figure is the median"
	echo "over $RUNS runs, with their range; times in ms per page."
	echo
	echo "| types loaded | indexed median CPU | indexed p90 CPU | indexed median wall | indexed median CPU, naive's pages | naive median CPU | naive p90 CPU |"
	echo "|---|---|---|---|---|---|---|"
	echo "${table%$'\n'}"
	echo
	echo "The same run's second series keeps the technologies found the same: the technologies the"
	echo "pages hold (those found on any of them with all loaded, with the knowledge base's types), alone"
	echo "and with 1,000 or all of the others, which none of the pages holds. It separates what the"
	echo "technologies a page lacks cost, the index's part, from the matching of those it holds, which"
	echo "grows with the number loaded in the first series only because more of them are found."
	echo
	echo "| types loaded | of which no page holds | indexed median CPU | indexed p90 CPU | median × first row |"
	echo "|---|---|---|---|---|"
	echo "${table2#$'\n'}"
} >"$section"

. "$ROOT/scripts/lib/docs.sh"
put_block detection scripts/bench-detect.sh "$section"
rm -f "$section"
log "wrote $ROOT/docs/benchmarks.md"
