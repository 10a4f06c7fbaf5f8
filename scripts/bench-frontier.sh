#!/usr/bin/env bash
# Frontier benchmark: crawler/frontier's TestLargeRun (N distinct URLs over
# 100,000 host queues in Schedule calls of 1,000, then N/10 rediscoveries)
# for the current code and for a baseline commit (the previous
# implementation), one after the other in the same run. The baseline is
# built with this tree's bench_test.go, so that both are measured by the
# same driver. Writes the figures to the "Frontier" section of
# docs/benchmarks.md (between the frontier markers).
#
#   scripts/bench-frontier.sh                 # 10M URLs, baseline 55daf6d
#   N=2000000 scripts/bench-frontier.sh       # a quicker run
#   BASE=none scripts/bench-frontier.sh       # the current code only
#   DOC=/dev/null scripts/bench-frontier.sh   # figures on stdout only
set -euo pipefail

N=${N:-10000000}
# 55daf6d: the DRUM seen-set with runs of 43-byte records in 43 KiB pages
# and a queue-record key per touched queue per seen pass.
BASE=${BASE:-55daf6d}
repo=$(cd "$(dirname "$0")/.." && pwd)
DOC=${DOC:-$repo/docs/benchmarks.md}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

log() { echo "bench-frontier: $*" >&2; }

head=$(git -C "$repo" rev-parse --short HEAD)
log "building the test binary of $head (working tree)"
(cd "$repo" && go test -c -o "$work/current.test" ./crawler/frontier/)
names=(current)
labels=("$head (this tree)")
if [ "$BASE" != none ]; then
	log "building the test binary of $BASE"
	mkdir "$work/base"
	git -C "$repo" archive "$BASE" | tar -x -C "$work/base"
	cp "$repo/crawler/frontier/bench_test.go" "$work/base/crawler/frontier/"
	(cd "$work/base" && go test -c -o "$work/base.test" ./crawler/frontier/)
	names+=(base)
	labels+=("$(git -C "$repo" rev-parse --short "$BASE") (previous implementation)")
fi

# secs converts a Go duration (1m15.611s, 52.3s, 1h2m3s) to seconds.
secs() {
	awk -v d="$1" 'BEGIN {
		t = 0
		while (match(d, /^[0-9.]+(h|ms|m|s)/)) {
			u = substr(d, 1, RLENGTH); d = substr(d, RLENGTH + 1)
			v = u + 0; sub(/^[0-9.]+/, "", u)
			t += (u == "h") ? v * 3600 : (u == "m") ? v * 60 : (u == "ms") ? v / 1000 : v
		}
		printf "%.1f", t
	}'
}

rows=()
for i in "${!names[@]}"; do
	name=${names[$i]}
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	log "running $name: $N URLs (load average $load)"
	(cd "$work" && FRONTIER_LARGE_RUN=$N FRONTIER_LARGE_DIR="$work/db-$name" \
		"./$name.test" -test.run '^TestLargeRun$' -test.v -test.timeout 120m >"$work/$name.log" 2>&1) ||
		{ tail -n 20 "$work/$name.log" >&2; exit 1; }
	rm -rf "$work/db-$name"
	# "N URLs in Q queues: WALL, R enqueues/s; D duplicates: DR/s; VmHWM K kB; process CPU time CPU"
	line=$(grep -E 'URLs in [0-9]+ queues:' "$work/$name.log" | tail -n 1)
	[ -n "$line" ] || { log "no result line in the $name run"; tail -n 20 "$work/$name.log" >&2; exit 1; }
	# "CPU per new URL A µs, per rediscovery B µs"
	per=$(grep -E 'CPU per new URL' "$work/$name.log" | tail -n 1)
	[ -n "$per" ] || { log "no CPU line in the $name run"; exit 1; }
	usNew=$(sed -E 's/.*per new URL ([0-9.]+) .*/\1/' <<<"$per")
	usDup=$(sed -E 's/.*per rediscovery ([0-9.]+) .*/\1/' <<<"$per")
	wall=$(secs "$(sed -E 's/.*queues: ([^,]+),.*/\1/' <<<"$line")")
	rate=$(sed -E 's/.*, ([0-9]+) enqueues\/s.*/\1/' <<<"$line")
	dups=$(sed -E 's/.*duplicates: ([0-9]+)\/s.*/\1/' <<<"$line")
	hwm=$(sed -E 's/.*VmHWM ([0-9]+) kB.*/\1/' <<<"$line")
	cpu=$(secs "$(sed -E 's/.*process CPU time (.*)$/\1/' <<<"$line")")
	mb=$((hwm / 1000))
	after=$(cut -d' ' -f1-3 /proc/loadavg)
	rows+=("| ${labels[$i]} | $wall s | $rate | $dups | $usNew µs | $usDup µs | $cpu s | $mb MB | $load → $after |")
	log "$name: $wall s, $rate enqueues/s, $dups duplicates/s, CPU $usNew µs per new URL, $usDup µs per rediscovery, $cpu s in all, peak RSS $mb MB"
done

section=$work/section.md
{
	echo "<!-- frontier:begin (written by scripts/bench-frontier.sh) -->"
	echo "Run of $(date -u +%Y-%m-%d), $N URLs (+ $((N / 10)) rediscovered), $(nproc) CPUs, $(go version | cut -d' ' -f3),"
	echo "command \`N=$N scripts/bench-frontier.sh\`; the runs follow one another."
	echo
	echo "| code | wall (new URLs) | enqueues/s | rediscoveries/s | CPU per new URL | CPU per rediscovery | CPU time (whole run) | peak RSS | load average before → after |"
	echo "|---|---|---|---|---|---|---|---|---|"
	printf '%s\n' "${rows[@]}"
	echo "<!-- frontier:end -->"
} >"$section"
cat "$section"
if [ "$DOC" != /dev/null ]; then
	if grep -q '<!-- frontier:begin' "$DOC"; then
		awk -v f="$section" '
			/<!-- frontier:begin/ { while ((getline l < f) > 0) print l; skip = 1; next }
			/<!-- frontier:end -->/ { skip = 0; next }
			!skip' "$DOC" >"$work/doc.md"
		cp "$work/doc.md" "$DOC"
		log "wrote the frontier figures of $DOC"
	else
		log "no frontier markers in $DOC: figures on stdout only"
	fi
fi
