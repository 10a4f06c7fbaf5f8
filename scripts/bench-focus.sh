#!/usr/bin/env bash
# Focused crawling benchmark (docs/benchmarks.md, "Focused crawling"):
#
#   1. mneme sim focus: update functions and batch settings on the generated
#      topical web (harvest ratio after PAGES pages, 3 topics);
#   2. real crawls of the generated topical web served on 127.0.0.1: focused
#      against breadth-first from the same seeds, PAGES pages each;
#   3. real crawls of a document web: the HTML documentation of Debian
#      packages (installed here with apt-get) served on 127.0.0.1 with a
#      generated index page, for nine topics each defined by three seed
#      pages (three narrow, three broad, three held out: not looked at
#      while the analysis was worked on): focused against breadth-first,
#      and the ceiling: a breadth-first walk of the whole web counts each
#      topic's relevant pages (scripts/bench/focusceiling; CEILING=0
#      skips it);
#   4. cost: the crawl benchmark's generated site (mneme demo serve-site)
#      crawled with the focus analysis on and off, interleaved RUNS times.
#
# Breadth-first is the same crawl with the same focus section (so every
# page is analysed and counted against the same topic) but weights
# {url: 1} and no URL rules: every link scores 0 and each queue is served
# in discovery order.
#
#   scripts/bench-focus.sh                   # everything
#   PARTS="sim web" scripts/bench-focus.sh   # some parts
#   PAGES=500 scripts/bench-focus.sh         # a quick run
#   PROFILE=/tmp/focus PARTS=cost scripts/bench-focus.sh  # keep the cost crawls' CPU profiles
set -euo pipefail

PAGES=${PAGES:-2000}
RUNS=${RUNS:-3}
COST_PAGES=${COST_PAGES:-5000}
WORKERS=${WORKERS:-4}
PARTS=${PARTS:-sim web docs cost}
DOC_TOPICS=${DOC_TOPICS:-all} # or groups: narrow, broad, held-out (e.g. "broad,held-out")
CEILING=${CEILING:-1}
DOC_RUNS=${DOC_RUNS:-2} # focused/breadth-first pairs per Debian topic
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT
(cd "$repo" && go build -o "$work/mneme" ./cmd/mneme)
mneme=$work/mneme
load() { cut -d' ' -f1-3 /proc/loadavg; }
has() { [[ " $PARTS " == *" $1 "* ]]; }

# crawl NAME WEIGHTS EXAMPLES SEEDS…: a crawl of PAGES responses with the
# focus section; prints its harvest line.
crawl() {
	local name=$1 weights=$2 examples=$3
	shift 3
	{
		echo "id: $name"
		echo "aah: false"
		echo "update: AVG"
		echo "workers: $WORKERS"
		echo "politeness: {off: true}"
		echo "limits: {pages: ${LIMIT:-$PAGES}}"
		echo "seeds:"
		for s in "$@"; do echo "  - $s"; done
		echo "focus:"
		echo "  examples:"
		for s in $examples; do echo "    - $s"; done
		echo "  weights: $weights"
	} >"$work/$name.yaml"
	"$mneme" crawl --spec "$work/$name.yaml" --data "$work/data" >"$work/$name.out" 2>"$work/$name.err"
	# Distinct relevant pages: relevant captures counted once per payload
	# (a manual that serves one file under several URLs, as the Apache
	# manual's translations do for their untranslated pages, is counted
	# once per URL in the harvest ratio).
	local distinct
	distinct=$("$mneme" query --store "$work/data/store" --format tsv "PREFIX m: <https://w3id.org/mneme#>
SELECT (COUNT(DISTINCT ?d) AS ?n) WHERE { GRAPH <urn:mneme:crawl:$name> { ?c m:topicSimilarity ?x ; m:payloadDigest ?d FILTER(?x > $THRESHOLD) } }" | tail -1 | tr -dc '0-9')
	echo "$(sed -n 's/^focus: harvest ratio \([0-9.]*\) (\([0-9]*\) of \([0-9]*\).*/\1 \2 \3/p' "$work/$name.out") ${distinct:-?}"
}
THRESHOLD=0.333 # the focus section's default relevance threshold
FOCUSED='{document: 0.4, paragraph: 0.2, anchor: 0.3, entities: 0.1, site: 0.4}'
BFS='{url: 1}'

# compare LABEL EXAMPLES SEEDS…: focused and breadth-first, one row.
compare() {
	local label=$1 examples=$2
	shift 2
	local l f b
	l=$(load)
	read -r fr frel fn fd <<<"$(crawl "f-$RANDOM" "$FOCUSED" "$examples" "$@")"
	read -r br brel bn bd <<<"$(crawl "b-$RANDOM" "$BFS" "$examples" "$@")"
	echo "| $label | $l | $br ($brel/$bn) | $fr ($frel/$fn) | $(echo "$fr $br" | awk '{printf "%.2f", $1 / $2}')× | $bd / $fd |"
}

if has sim; then
	echo "## simulator (load $(load))"
	echo
	echo '```'
	"$mneme" sim focus --pages "$PAGES"
	echo '```'
	echo
fi

if has web; then
	echo "## generated topical web (load $(load))"
	echo
	echo "| topic | load | breadth-first | focused | focused / breadth-first | distinct relevant pages, breadth-first / focused |"
	echo "|---|---|---|---|---|---|"
	for t in 0 1 2; do
		"$mneme" sim focus serve --topic "$t" --seeds 5 >"$work/web$t.txt" &
		pids+=($!)
		for _ in $(seq 100); do [ -f "$work/web$t.txt" ] && [ "$(wc -l <"$work/web$t.txt")" -ge 6 ] && break; sleep 0.1; done
		mapfile -t seeds < <(tail -n +2 "$work/web$t.txt")
		compare "topic $t" "${seeds[*]}" "${seeds[@]}"
	done
	echo
fi

if has docs; then
	# The web: these packages' HTML manuals, each linked from a generated
	# index page (the Debian Handbook once per language). Sizes in HTML
	# pages (Debian 12): Python 530, PostgreSQL 1,169, Apache 2,685 (every
	# language; most translations' missing pages are links to the English
	# ones), Debian Reference 16, Debian Handbook 3,302 (26 languages),
	# SQLite 766, Django 692, SQLAlchemy 224, Git 242, Flask 77, Debian
	# Policy 26, Developer's Reference 12, New Maintainers' Guide 11,
	# OpenJDK 17 API 10,137: 19,890 with the index page.
	# "name|package|folder|index page under the folder|title"
	manuals=(
		"python|python3-doc|/usr/share/doc/python3-doc/html|index.html|Python 3 documentation"
		"postgresql|postgresql-doc-15|/usr/share/doc/postgresql-doc-15/html|index.html|PostgreSQL documentation"
		"debian-reference|debian-reference-en|/usr/share/debian-reference|index.en.html|Debian Reference"
		"apache|apache2-doc|/usr/share/doc/apache2-doc/manual|en/index.html|Apache HTTP Server documentation"
		"debian-handbook|debian-handbook|/usr/share/doc/debian-handbook/html|*/index.html|The Debian Administrator's Handbook"
		"sqlite|sqlite3-doc|/usr/share/doc/sqlite3|index.html|SQLite documentation"
		"django|python-django-doc|/usr/share/doc/python-django-doc/html|index.html|Django documentation"
		"sqlalchemy|python-sqlalchemy-doc|/usr/share/doc/python-sqlalchemy-doc/html|index.html|SQLAlchemy documentation"
		"git|git-doc|/usr/share/doc/git-doc|git.html|Git manual pages"
		"flask|python-flask-doc|/usr/share/doc/python-flask-doc/html|index.html|Flask documentation"
		"debian-policy|debian-policy|/usr/share/doc/debian-policy/policy.html|index.html|Debian Policy Manual"
		"developers-reference|developers-reference|/usr/share/developers-reference|index.html|Debian Developer's Reference"
		"maint-guide|maint-guide|/usr/share/doc/maint-guide/html|index.en.html|Debian New Maintainers' Guide"
		"openjdk|openjdk-17-doc|/usr/share/doc/openjdk-17-doc/api|index.html|OpenJDK 17 API documentation"
	)
	missing=()
	for m in "${manuals[@]}"; do
		IFS='|' read -r _ pkg dir _ _ <<<"$m"
		[ -d "$dir" ] || missing+=("$pkg")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
	fi
	root=$work/docs
	mkdir -p "$root"
	{
		echo "<!DOCTYPE html><html><head><title>Documentation</title></head><body><h1>Documentation</h1><ul>"
		for m in "${manuals[@]}"; do
			IFS='|' read -r name _ dir index title <<<"$m"
			ln -s "$dir/" "$root/$name"
			for f in "$root/$name/"$index; do
				rel=${f#"$root/"}
				label=$title
				# one entry per language: the language's folder names it
				if [[ $index == '*/'* ]]; then
					lang=${rel#"$name/"}
					label="$title (${lang%%/*})"
				fi
				echo "<li><a href=\"$rel\">$label</a></li>"
			done
		done
		echo "</ul></body></html>"
	} >"$root/index.html"
	port=$((20000 + RANDOM % 20000))
	/usr/bin/python3 -m http.server --bind 127.0.0.1 --directory "$root" "$port" >/dev/null 2>&1 &
	pids+=($!)
	for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/" >/dev/null && break; sleep 0.1; done
	base=http://127.0.0.1:$port
	pages=$(find -L "$root" -name '*.html' | wc -l)
	echo "## Debian documentation web: $pages HTML pages (load $(load))"
	echo
	echo "| topic (seed pages) | load | breadth-first | focused | focused / breadth-first | distinct relevant pages, breadth-first / focused |"
	echo "|---|---|---|---|---|---|"
	# A topic: its group, its label and its three seed pages. Narrow and
	# broad topics were measured while the analysis was worked on; the
	# held-out ones were chosen before, and not looked at.
	topics=(
		"narrow|PostgreSQL indexes|postgresql/indexes-types.html postgresql/indexes-multicolumn.html postgresql/indexes-unique.html"
		"narrow|Python regular expressions|python/library/re.html python/howto/regex.html python/library/string.html"
		"narrow|Apache virtual hosts|apache/en/vhosts/name-based.html apache/en/vhosts/ip-based.html apache/en/vhosts/examples.html"
		"broad|SQL queries (PostgreSQL tutorial)|postgresql/tutorial-select.html postgresql/tutorial-join.html postgresql/queries-overview.html"
		"broad|Python files and the OS|python/library/os.html python/library/pathlib.html python/library/shutil.html"
		"broad|Apache configuration|apache/en/configuring.html apache/en/sections.html apache/en/mod/core.html"
		"held-out|Python networking|python/library/socket.html python/library/ssl.html python/library/selectors.html"
		"held-out|PostgreSQL backup|postgresql/backup-dump.html postgresql/continuous-archiving.html postgresql/warm-standby.html"
		"held-out|Apache authentication|apache/en/howto/auth.html apache/en/mod/mod_auth_basic.html apache/en/mod/mod_authz_core.html"
	)
	chosen=()
	for t in "${topics[@]}"; do
		IFS='|' read -r group label pages <<<"$t"
		if [ "$DOC_TOPICS" = all ] || [[ ",$DOC_TOPICS," == *",$group,"* ]]; then
			ex=""
			for p in $pages; do ex="$ex $base/$p"; done
			chosen+=("$label|${ex# }")
		fi
	done
	# Breadth-first varies from run to run (with the order the workers
	# finish in): DOC_RUNS pairs per topic, the runs interleaved.
	for run in $(seq "$DOC_RUNS"); do
		for t in "${chosen[@]}"; do
			IFS='|' read -r label ex <<<"$t"
			# shellcheck disable=SC2086
			compare "$label, run $run" "$ex" "$base/" $ex
		done
	done
	if [ "$CEILING" = 1 ]; then
		# The ceiling: one breadth-first walk of everything reachable
		# counts each topic's relevant pages; at most that many (and at
		# most PAGES) can be found in PAGES pages, so the best harvest
		# ratio any crawl can reach is min(relevant, PAGES) / PAGES, and
		# the best ratio to breadth-first that over breadth-first's.
		(cd "$repo" && go build -o "$work/focusceiling" ./scripts/bench/focusceiling)
		args=()
		for t in "${chosen[@]}"; do args+=("$t"); done
		echo
		echo "Ceiling: the relevant pages of the whole web (one breadth-first walk of all of it, load $(load)), and the best harvest ratio after $PAGES pages"
		echo
		echo "| topic (seed pages) | relevant of all analysed | distinct relevant | best harvest ratio after $PAGES pages | relevant pages per manual |"
		echo "|---|---|---|---|---|"
		"$work/focusceiling" -start "$base/" "${args[@]}" 2>"$work/ceiling.err" |
			awk -F'\t' -v pages="$PAGES" '{
				per = ""; for (i = 5; i <= NF; i++) per = per (i > 5 ? ", " : "") $i
				printf "| %s | %d of %d | %d | %.3f | %s |\n", $1, $2, $3, $4, ($2 < pages ? $2 : pages) / pages, per
			}'
	fi
	echo
fi

# cpu_parts PROFILE PAGES: CPU ms per page of the crawl's parts, from a
# CPU profile: the cumulative time of the function that is each part.
cpu_parts() {
	go tool pprof -top -cum -nodecount=1000000 "$1" 2>/dev/null | awk -v n="$2" '
		function secs(v) { return v ~ /ms$/ ? v / 1000 : v ~ /us$|µs$/ ? v / 1e6 : v + 0 }
		/^Duration:/ { total = secs($(NF - 1)) }
		{ cum[$NF] = secs($4) }
		END {
			split("analysis/focus.(*Crawl).Focus text.(*Analyzer).addCounts focus.(*explainStore).add " \
				"extract.(*Standard).ExtractContent|extract.(*Standard).Extract crawler.(*Crawl).hand " \
				"crawler.(*Crawl).focusFlush crawler.(*sink).commit pebble/v2.(*DB).runCompaction " \
				"warc.(*Writer).WriteExchange", want, " ")
			printf "%.2f", n ? total * 1000 / n : 0
			for (i = 1; i in want; i++) {
				t = 0
				for (f in cum) {
					k = split(want[i], alt, "|")
					for (j = 1; j <= k; j++) if (f ~ ("(^|/)" esc(alt[j]) "$")) t += cum[f]
				}
				printf " | %.2f", n ? t * 1000 / n : 0
			}
		}
		function esc(s) { gsub(/[().*]/, "\\\\&", s); return s }'
}

if has cost; then
	"$mneme" demo serve-site --pages "$COST_PAGES" --addr 127.0.0.1:0 >"$work/site.txt" &
	pids+=($!)
	for _ in $(seq 100); do [ -s "$work/site.txt" ] && break; sleep 0.1; done
	read -r site _ <<<"$(cat "$work/site.txt")"
	# Every module runs: the topic is two of the site's pages and a
	# keyword, with two entities and a URL rule.
	{
		echo "seeds: [$site]"
		echo "aah: false"
		echo "focus:"
		echo "  keywords: [{term: archive}]"
		echo "  examples: [${site}s/0/1.html, ${site}s/0/2.html]"
		echo "  entities: [{name: Internet Archive, aliases: [Wayback Machine]}, {name: Heritrix}]"
		echo "  urls: [{pattern: '/s/[0-9]+/[0-9]*1[.]html', score: 1}]"
		echo "  weights: {document: 0.4, paragraph: 0.2, anchor: 0.2, entities: 0.1, url: 0.1}"
	} >"$work/on.yaml"
	printf 'seeds: [%s]\naah: false\n' "$site" >"$work/off.yaml"
	echo "## cost: $COST_PAGES-page crawl benchmark site, analysis off and on, interleaved"
	echo
	# CPU: user + system time of the crawl process per response (the
	# machine's load inflates wall times, not CPU times).
	echo "| run | analysis | load before | pages/s | CPU ms per page | wall time per page in the workers, by module |"
	echo "|---|---|---|---|---|---|"
	parts=()
	for run in $(seq "$RUNS"); do
		for mode in off on; do
			l=$(load)
			rm -rf "$work/cost"
			prof=${PROFILE:-$work/prof}-$mode-$run.pprof
			/usr/bin/time -f "%U %S" -o "$work/cost.time" "$mneme" crawl --spec "$work/$mode.yaml" --politeness off --workers 8 --data "$work/cost" --id c --cpuprofile "$prof" >"$work/cost.out" 2>/dev/null
			rate=$(sed -n 's/.* \([0-9.]*\) pages\/s.*/\1/p' "$work/cost.out" | head -1)
			per=$(sed -n 's/^focus: analysis time per page[^:]*: //p' "$work/cost.out")
			n=$(sed -n 's/.* finished: \([0-9]*\) pages.*/\1/p' "$work/cost.out" | head -1)
			cpu=$(awk -v n="${n:-0}" '{printf "%.2f", n ? ($1 + $2) * 1000 / n : 0}' "$work/cost.time")
			echo "| $run | $mode | $l | $rate | $cpu | ${per:--} |"
			parts+=("| $run | $mode | $(cpu_parts "$prof" "${n:-0}") |")
		done
	done
	echo
	echo "CPU ms per page by part of the crawl, from each crawl's CPU profile (a"
	echo "part's time includes what it calls; Pebble's flushes and compactions run"
	echo "in the background, for the store, the frontier and the focus explanations):"
	echo
	echo "| run | analysis | profiled | focus analysis | of it: term counts | of it: explanations | content extraction | link scheduling | of it: frontier passes | RDF commits | Pebble flushes and compactions | WARC writing |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
	printf '%s\n' "${parts[@]}"
	echo
fi
