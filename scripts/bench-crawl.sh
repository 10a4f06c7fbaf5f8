#!/usr/bin/env bash
# Crawl benchmark: mneme against wget on the same generated site, in the
# same run, on 127.0.0.1, and the "Crawling" section of docs/benchmarks.md
# rewritten with the figures.
#
#   scripts/bench-crawl.sh            # 20,000 pages
#   PAGES=2000 scripts/bench-crawl.sh # a quick run (the doc is still rewritten)
#   RUNS=5 scripts/bench-crawl.sh     # five wget/mneme pairs (default 3); the median ratio counts
#   DOC=/dev/null scripts/bench-crawl.sh  # figures on stdout only
#   CPUPROFILE=/tmp/crawl.pprof scripts/bench-crawl.sh  # profile mneme's crawl
#   AB=--no-aah DOC=/dev/null scripts/bench-crawl.sh  # A/B: each run also crawls with
#       these extra flags, the two mneme crawls back to back in alternating order,
#       and the medians of the per-run ratios (B / A, wall and CPU) are printed;
#       A_FLAGS adds flags to the A crawls (e.g. A_FLAGS="--fingerprints DIR")
#
# The site is `mneme demo serve-site` (internal/synthweb.BigSite): N pages of
# 20-50 KB with 50-100 links each, plus their stylesheets, images and script.
# wget runs with --recursive --level=inf --no-parent --warc-file and robots
# off; mneme crawl with politeness off (allowed for loopback seeds), WARC,
# link extraction and RDF on, as always. Both fetch every URL of the site.
set -euo pipefail

PAGES=${PAGES:-20000}
RUNS=${RUNS:-3}
WORKERS=${WORKERS:-8}
repo=$(cd "$(dirname "$0")/.." && pwd)
DOC=${DOC:-$repo/docs/benchmarks.md}

if ! command -v wget >/dev/null; then
	apt-get install -y wget >/dev/null
fi
if [ ! -x /usr/bin/time ]; then
	apt-get install -y time >/dev/null
fi

work=$(mktemp -d)
site_pid=
cleanup() {
	if [ -n "$site_pid" ]; then kill "$site_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

(cd "$repo" && go build -o "$work/mneme" ./cmd/mneme)
"$work/mneme" demo serve-site --pages "$PAGES" --addr 127.0.0.1:0 >"$work/site.txt" &
site_pid=$!
for _ in $(seq 100); do
	[ -s "$work/site.txt" ] && break
	sleep 0.1
done
read -r root _ _ urls _ <<<"$(sed 's/,//' "$work/site.txt")"
[ -n "$root" ] || { echo "the site did not start" >&2; exit 1; }
echo "site: $root ($PAGES pages, $urls URLs)"

now() { date +%s.%N; }
# CPU seconds (user + system) the site server has used so far: each tool's
# share of the server's work is its delta.
server_cpu() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.1f", ($14 + $15) / hz}' "/proc/$site_pid/stat"; }
# cpu FILE: the user + system seconds /usr/bin/time wrote to FILE.
cpu() { awk '{printf "%.1f", $1 + $2}' "$1"; }
sub() { echo "$1 $2" | awk '{printf "%.1f", $1 - $2}'; }
elapsed() { echo "$1 $2" | awk '{printf "%.1f", $2 - $1}'; }
rate() { echo "$1 $2" | awk '{printf "%.0f", $1 / $2}'; }

# wget: exit code 8 means some response was an error status, which this
# site has none of; any other failure stops the benchmark.
wget_cmd="wget --recursive --level=inf --no-parent --warc-file=site --no-verbose -e robots=off $root"
mneme_cmd="mneme crawl --politeness off --workers $WORKERS --data DATA"
# run_mneme EXTRA...: one crawl, its figures in mneme_* variables.
run_mneme() {
	rm -rf "$work/data"
	load_mneme=$(cut -d' ' -f1-3 /proc/loadavg)
	s0=$(server_cpu)
	t0=$(now)
	/usr/bin/time -f "%U %S" -o "$work/mneme.cpu" "$work/mneme" crawl --politeness off --workers "$WORKERS" --data "$work/data" --id bench ${CPUPROFILE:+--cpuprofile "$CPUPROFILE"} "$@" "$root" >"$work/mneme.out" 2>"$work/mneme.err"
	t1=$(now)
	mneme_server=$(sub "$(server_cpu)" "$s0")
	mneme_cpu=$(cpu "$work/mneme.cpu")
	mneme_secs=$(elapsed "$t0" "$t1")
	mneme_fetched=$(sed -n 's/.*: \([0-9]*\) pages, .*/\1/p' "$work/mneme.out")
	mneme_pages=$(awk '$2 == 200 && $7 == "text/html"' "$work/data/crawls/bench/crawl.log" | wc -l)
	mneme_warc=$(du -cb "$work"/data/crawls/bench/warcs/*.warc.gz | tail -1 | cut -f1)
	mneme_quads=$("$work/mneme" store stats "$work/data/store" | awk '$1 == "quads" { print $2 }')
}
ab_row() {
	ab_secs=$mneme_secs ab_cpu=$mneme_cpu
	b_row="| $run | mneme $AB | \`$mneme_cmd $AB $root\` | $load_mneme | $mneme_secs s | $mneme_cpu s ($mneme_server s) | $mneme_fetched | $mneme_pages | $mneme_warc | $mneme_quads | $(rate "$mneme_pages" "$mneme_secs") |
"
}
rows=
ratios=
ab_wall=
ab_cpus=
for run in $(seq "$RUNS"); do
	rm -rf "$work/wget" "$work/data"
	mkdir "$work/wget"
	load_wget=$(cut -d' ' -f1-3 /proc/loadavg)
	s0=$(server_cpu)
	t0=$(now)
	(cd "$work/wget" && /usr/bin/time -f "%U %S" -o "$work/wget.cpu" $wget_cmd -o wget.log) || { code=$?; [ "$code" -eq 8 ] || { tail "$work/wget/wget.log" >&2; exit 1; }; }
	t1=$(now)
	wget_server=$(sub "$(server_cpu)" "$s0")
	wget_cpu=$(cpu "$work/wget.cpu")
	wget_secs=$(elapsed "$t0" "$t1")
	wget_fetched=$(grep -c ' URL:' "$work/wget/wget.log" || true)
	wget_pages=$(find "$work/wget" -name '*.html' | wc -l)
	wget_warc=$(du -sb "$work/wget/site.warc.gz" | cut -f1)

	if [ -n "${AB:-}" ] && [ $((run % 2)) -eq 0 ]; then
		# shellcheck disable=SC2086 # AB is a list of flags
		run_mneme $AB
		ab_row
	fi
	# shellcheck disable=SC2086 # A_FLAGS is a list of flags
	run_mneme ${A_FLAGS:-}
	a_secs=$mneme_secs a_cpu=$mneme_cpu
	a_row="| $run | mneme | \`$mneme_cmd${A_FLAGS:+ $A_FLAGS} $root\` | $load_mneme | $mneme_secs s | $mneme_cpu s ($mneme_server s) | $mneme_fetched | $mneme_pages | $mneme_warc | $mneme_quads | $(rate "$mneme_pages" "$mneme_secs") |
"
	if [ -n "${AB:-}" ] && [ $((run % 2)) -eq 1 ]; then
		# shellcheck disable=SC2086
		run_mneme $AB
		ab_row
	fi
	if [ -n "${AB:-}" ]; then
		ab_wall="$ab_wall $(echo "$ab_secs $a_secs" | awk '{printf "%.3f", $1 / $2}')"
		ab_cpus="$ab_cpus $(echo "$ab_cpu $a_cpu" | awk '{printf "%.3f", $1 / $2}')"
		echo "run $run: mneme $a_secs s wall, $a_cpu s CPU; mneme $AB $ab_secs s wall, $ab_cpu s CPU" >&2
	fi
	mneme_secs=$a_secs
	ratio=$(echo "$wget_secs $mneme_secs" | awk '{printf "%.2f", $1 / $2}')
	ratios="$ratios $ratio"
	echo "run $run: wget $wget_secs s, mneme $mneme_secs s, ratio $ratio" >&2
	rows="$rows| $run | wget | \`$wget_cmd\` | $load_wget | $wget_secs s | $wget_cpu s ($wget_server s) | $wget_fetched | $wget_pages | $wget_warc | – | $(rate "$wget_pages" "$wget_secs") |
$a_row${AB:+$b_row}"
done
if [ -n "${AB:-}" ]; then
	med() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR] = $1} END {printf "%.3f", NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
	echo "A/B: mneme $AB / mneme${A_FLAGS:+ $A_FLAGS} per run, wall:$ab_wall (median $(echo "$ab_wall" | med)); CPU:$ab_cpus (median $(echo "$ab_cpus" | med))"
fi
# The median of the runs' ratios: each run pairs the two tools back to
# back, so a change in the machine's speed between runs cancels out.
median=$(echo $ratios | tr ' ' '\n' | sort -n | awk '{a[NR] = $1} END {printf "%.2f", NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}')

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
section=$(cat <<MD
## Crawling

What is measured: the wall time of a complete crawl of a generated site of $PAGES pages
(\`mneme demo serve-site\`, package \`internal/synthweb\`: 20–50 KB of HTML and 50–100 links per
page, two stylesheets, three images and a script per page from shared pools; $urls URLs in all)
served on 127.0.0.1 by a separate mneme process, by wget and then by mneme, $RUNS times in the
same run. Both fetch every URL and write a WARC file; mneme also extracts the links, writes the
crawl.log and commits every capture and link as RDF to its store. Pages/s counts the HTML pages
(status 200, text/html) over the wall time. CPU is the user + system time of the tool, and of the
site server while it served that tool: on a shared machine the wall times follow the load, the CPU
times much less. The speed of this virtual machine also drifts over minutes (the same binary's CPU
time for the same crawl has varied by 40 % within the hour), so each run pairs the two tools back
to back and the figure that counts is the median of the runs' ratios.

Command (from the repository root; \`PAGES=N\` for another size, \`RUNS=N\` for another number of pairs):

    scripts/bench-crawl.sh

| run | tool | command | load average before | wall time | CPU (server) | responses | HTML pages | WARC bytes | RDF quads | pages/s |
|---|---|---|---|---|---|---|---|---|---|---|
$rows
Ratio mneme / wget (wall time) per run:$(echo $ratios | sed 's/ /×, /g; s/^/ /')×; median **${median}×** (acceptance target: 3×; goal beyond it: 5,000 pages/s).

Machine: $(nproc) CPUs (\`$cpu\`), $(uname -sm), $(go version | cut -d' ' -f3), $(wget --version | head -1 | cut -d' ' -f1-3).
Measured $(date -u +%Y-%m-%d).

<!-- end of the figures written by scripts/bench-crawl.sh; notes below are kept -->
MD
)
echo "$section"

if [ "$DOC" != /dev/null ]; then
	# Replace the figures (up to the end marker, else the next "## "
	# heading) or append the section.
	awk -v section="$section" '
		/^## Crawling$/ { print section; skip = 1; done = 1; next }
		skip && /^<!-- end of the figures/ { skip = 0; next }
		skip && /^## / { skip = 0; print "" }
		!skip { print }
		END { if (!done) { print ""; print section } }
	' "$DOC" >"$work/doc.md"
	cp "$work/doc.md" "$DOC"
	echo "wrote the Crawling section of $DOC"
fi
