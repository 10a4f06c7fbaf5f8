#!/usr/bin/env bash
# Detection benchmark: kb.Detector.Detect per page over the saved pages of
# ../shared/data/aah-pages with the built-in KB plus 0, 1, 100, 1,000 and
# all webappanalyzer fingerprints, against a naive peer (no literal index,
# every regex on its whole field) in the same run (BenchmarkDetect in
# kb/bench_test.go). Writes the figures to the "Application detection"
# section of docs/benchmarks.md (between the detection markers).
#
# Usage: scripts/bench-detect.sh [RUNS]   (benchmark runs, default 3; each
# configuration's figure is the median over the runs, with their range;
# a run's indexed detectors are interleaved, 5 iterations each)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${1:-3}
ITER=5x

log() { echo "bench-detect: $*" >&2; }

for d in "$ROOT/../shared/data/aah-pages" "$ROOT/../shared/data/fingerprints/webappanalyzer"; do
	[ -d "$d" ] || { log "missing $d"; exit 1; }
done

MACHINE="$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(go version | awk '{print $3}')"
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
out=$(mktemp)
log "running BenchmarkDetect ($RUNS runs of $ITER)"
(cd "$ROOT" && go test -run '^$' -bench '^BenchmarkDetect$' -benchtime "$ITER" -count "$RUNS" ./kb/) | tee "$out" >&2
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

# One row per number of types: for each metric the median over the runs
# and, with several runs, their range.
table=$(awk '
	function fmt(vals,    n, a, i, j, t, med) {
		n = split(vals, a, " ")
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
		med = a[int((n + 1) / 2)]
		if (n == 1) return sprintf("%.2f", med)
		return sprintf("%.2f (%.2f–%.2f)", med, a[1], a[n])
	}
	/^BenchmarkDetect\/indexed/ {
		# One line for all detectors: the unit of each metric ends in @types=N.
		for (i = 3; i < NF; i += 2) {
			if (split($(i + 1), q, "@types=") != 2) continue
			n = q[2]
			if (!(n in seen)) { seen[n] = 1; order[++rows] = n }
			v["indexed", n, q[1]] = v["indexed", n, q[1]] " " $i
		}
	}
	/^BenchmarkDetect\/naive\// {
		split($1, p, "/"); n = p[3]; sub(/^types=/, "", n); sub(/-[0-9]+$/, "", n)
		for (i = 3; i < NF; i += 2) v["naive", n, $(i + 1)] = v["naive", n, $(i + 1)] " " $i
	}
	END {
		# By number of types (go test lists the metrics by unit name).
		for (i = 1; i <= rows; i++) for (j = i + 1; j <= rows; j++) if (order[j] + 0 < order[i] + 0) { t = order[i]; order[i] = order[j]; order[j] = t }
		for (r = 1; r <= rows; r++) {
			n = order[r]
			printf "| %s | %s | %s | %s | %s | %s | %s |\n", n,
				fmt(v["indexed", n, "median-cpu-ms/page"]), fmt(v["indexed", n, "p90-cpu-ms/page"]),
				fmt(v["indexed", n, "median-ms/page"]), fmt(v["indexed", n, "median-cpu-ms/naive-page"]),
				fmt(v["naive", n, "median-cpu-ms/page"]), fmt(v["naive", n, "p90-cpu-ms/page"])
		}
	}' "$out")
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
	echo "Command: \`scripts/bench-detect.sh $RUNS\`, which runs"
	echo "\`go test -run '^\$' -bench '^BenchmarkDetect\$' -benchtime $ITER -count $RUNS ./kb/\`."
	echo "\`kb.Detector.Detect\` per page over the 260 saved pages of \`../shared/data/aah-pages/\` with the"
	echo "built-in KB (17 types) plus the first N webappanalyzer technologies (name order), N = 0, 1, 100,"
	echo "1,000 and all 7,586. Pages are parsed beforehand (parsing is the crawler's cost, shared with link"
	echo "and object extraction); every detection starts from a document without its element index, so"
	echo "the walk that builds it and the lower-casing of the markup are counted, and every fingerprint"
	echo "technology is matched on every page. CPU is the benchmark thread's (\`CLOCK_THREAD_CPUTIME_ID\`)."
	echo "The five indexed detectors are interleaved: each iteration runs every one of them over all pages,"
	echo "starting one detector later each iteration, so that the machine's drift in speed (a quarter within"
	echo "minutes on this VM) weighs on all alike; a detector's figures are over all its iterations' pages."
	echo "The naive peer, in the same run after them, on every 20th page (13 pages: it tries every regex on every"
	echo "page), tries each type's patterns in turn until one fires with no literal index, and every"
	echo "fingerprint pattern on the whole of its field (\`fingerprint.Set.MatchExhaustive\`); the"
	echo "indexed detector's median over those 13 pages is given beside it. Each figure is the median"
	echo "over $RUNS runs, with their range; times in ms per page."
	echo
	echo "| types loaded | indexed median CPU | indexed p90 CPU | indexed median wall | indexed median CPU, naive's pages | naive median CPU | naive p90 CPU |"
	echo "|---|---|---|---|---|---|---|"
	echo "$table"
} >"$section"

. "$ROOT/scripts/lib/docs.sh"
put_block detection scripts/bench-detect.sh "$section"
rm -f "$section"
log "wrote $ROOT/docs/benchmarks.md"
