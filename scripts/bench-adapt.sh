#!/bin/bash
# Adaptation to template change on the real CMSs (../shared/cms): runs the
# acceptance tests of package kb/adapt and writes their figures into the
# "adaptation" section of docs/benchmarks.md (between its markers).
#   bash scripts/bench-adapt.sh
# Needs the CMSs (bash ../shared/cms/setup-cms.sh) and the mysql client.
set -euo pipefail
cd "$(dirname "$0")/.."
doc=docs/benchmarks.md
out=$(mktemp)
trap 'rm -f "$out" "$out.section"' EXIT
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s)
go test -count=1 -timeout 40m -v -run 'Recrawl|ColdStart|CrawlAdapt|LevelRelax' ./kb/adapt/ | tee "$out" >/dev/null || true
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
took=$(( $(date +%s) - start ))
{
	echo "<!-- adaptation:begin (written by scripts/bench-adapt.sh) -->"
	echo "## Adaptation to template change"
	echo
	echo "Package \`kb/adapt\` on the real CMSs: a knowledge base cut down to the alternatives that"
	echo "fired on the old template (the shipped entries know both themes, so nothing would fail"
	echo "otherwise), the template switched with \`shared.SwitchTheme\`, then a recrawl that relearns"
	echo "from the objects the first crawl stored, or a cold start (no earlier crawl) that relaxes the"
	echo "KB's expressions. A post is right when its title, author, date (GMT) and text (word F1 ≥"
	echo "0.9) agree with the WordPress database; a wiki article when its title, text (F1 ≥ 0.8"
	echo "against the wikitext) and last modification (to the minute) agree with the MediaWiki API."
	echo "\"kb level\": pages fetched directly and extracted with \`kb\`; \"crawl\": real crawls with"
	echo "the application-aware helper (\`kb/aah\`) and an \`adapt.Session\`, objects read back from"
	echo "the crawl's graph in the store."
	echo
	echo "Command: \`bash scripts/bench-adapt.sh\` (go test -run 'Recrawl|ColdStart|CrawlAdapt|LevelRelax' ./kb/adapt/)."
	echo "Run of $(date -u '+%Y-%m-%d %H:%M UTC'), ${took} s; load average $LOAD_BEFORE before, $LOAD_AFTER after"
	echo "(2 cores shared with other helpers' builds and tests)."
	echo
	echo "| case | right before adapting | right after | patterns learned |"
	echo "|---|---|---|---|"
	sed -nE 's/^ *[a-z_]+_test\.go:[0-9]+: (.*): ([0-9]+\/[0-9]+) right before adapting, ([0-9]+\/[0-9]+) after \(([0-9]+) patterns learned\)$/| \1 | \2 | \3 | \4 |/p' "$out"
	echo
	echo "The first crawls, on the old template, before the switch:"
	echo
	sed -nE 's/^ *[a-z_]+_test\.go:[0-9]+: (AAH crawls.*first crawl.*)$/- \1/p' "$out"
	if grep -q -- '--- FAIL' "$out"; then
		echo
		echo "Failed in this run: $(grep -- '--- FAIL' "$out" | sed 's/--- FAIL: //' | tr '\n' ' ')"
	fi
	echo
	echo "Patterns learned (from the test logs):"
	echo
	grep -o '\(relearn\|relax\) [a-z]*/[a-z]*: .*\|adapt: [0-9.:]*: learned .*' "$out" | sort -u | sed 's/^/    /' || true
	echo
	echo "<!-- adaptation:end -->"
} >"$out.section"
if grep -q '<!-- adaptation:begin' "$doc"; then
	awk -v f="$out.section" '
		/<!-- adaptation:begin/ { while ((getline l < f) > 0) print l; skip = 1; next }
		/<!-- adaptation:end -->/ { skip = 0; next }
		!skip { print }' "$doc" >"$doc.new" && mv "$doc.new" "$doc"
else
	{ echo; cat "$out.section"; } >>"$doc"
fi
grep -E -- '^(--- |FAIL|ok)' "$out" || true
