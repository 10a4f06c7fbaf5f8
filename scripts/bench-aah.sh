#!/usr/bin/env bash
# Application-aware crawling benchmark: runs the acceptance tests of
# package kb/aah on the real CMSs of ../shared/cms (WordPress, MediaWiki,
# DokuWiki on 127.0.0.1:8081-8083, started by .ci/install-cms.sh or
# ../shared/cms/setup-cms.sh) and writes their figures to the
# "Application-aware crawling" section of docs/benchmarks.md (between the
# aah markers). On WordPress the helper's crawl is compared with
# wget --recursive in the same run; on the wikis, where wget may not end,
# with the wikis' own rendering of their articles (and wget's requests
# within a time limit).
#
# Usage: scripts/bench-aah.sh   (WGET_LIMIT=SECONDS: how long wget may run
# on each wiki to show it does not end; default 180)
set -euo pipefail
WGET_LIMIT=${WGET_LIMIT:-180}

ROOT=$(cd "$(dirname "$0")/.." && pwd)
log() { echo "bench-aah: $*" >&2; }

out=$(mktemp)
trap 'rm -f "$out"' EXIT
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
log "running the kb/aah acceptance tests (wget on WordPress takes a minute or two)"
(cd "$ROOT" && go test ./kb/aah/ -run 'TestWordPressAAH|TestMediaWikiAAH|TestDokuWikiAAH' -count=1 -v -timeout 20m) >"$out" 2>&1 || {
	tail -n 40 "$out" >&2
	log "the tests failed"
	exit 1
}
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
for site in WordPress MediaWiki DokuWiki; do
	grep -q "figures: site=$site " "$out" || { log "no figures for $site (skipped?):"; grep -i skip "$out" >&2; exit 1; }
done

# wget on the wikis, for WGET_LIMIT seconds each (--no-directories: its
# pages are not read here, and a page saved as a file where another needs
# a directory of the same name would stop its traversal): requests made,
# seconds, and whether it ended.
declare -A WIKI_WGET WIKI_WGET_N WIKI_WGET_S
for site in MediaWiki=http://127.0.0.1:8082/wiki/Main_Page DokuWiki=http://127.0.0.1:8083/doku.php; do
	name=${site%%=*} url=${site#*=}
	dir=$(mktemp -d)
	log "wget --recursive on $name for at most $WGET_LIMIT s"
	code=0
	# Under the lock the CMS tests take (internal/testenv.CMS), so that no
	# theme switch happens meanwhile; timed once the lock is held.
	(cd "$dir" && flock "${TMPDIR:-/tmp}/mneme-cms.lock" bash -c '
		t0=$(date +%s.%N) code=0
		timeout "$0" wget --recursive --level=inf --no-parent --no-directories --no-verbose -e robots=off -o wget.log "$1" || code=$?
		echo "$t0 $(date +%s.%N)" >secs
		exit $code' "$WGET_LIMIT" "$url") || code=$?
	WIKI_WGET_S[$name]=$(awk '{printf "%.1f", $2 - $1}' "$dir/secs")
	n=$(grep -c -e ' URL:' -e ' ERROR ' "$dir/wget.log" || true)
	WIKI_WGET_N[$name]=$n
	case $code in
	124) WIKI_WGET[$name]="$n, not ended after $WGET_LIMIT s" ;;
	0) WIKI_WGET[$name]="$n (ended)" ;;
	*) WIKI_WGET[$name]="$n (ended, exit $code)" ;;
	esac
	rm -rf "$dir"
done

# field SITE KEY prints the value of KEY on SITE's figures line.
field() { grep -o "figures: site=$1 .*" "$out" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

section=$(mktemp)
{
	echo "<!-- aah:begin (written by scripts/bench-aah.sh) -->"
	echo "## Application-aware crawling"
	echo
	echo "Run $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) CPUs, $(go version | cut -d' ' -f3); load average $LOAD_BEFORE before, $LOAD_AFTER after"
	if awk -v l="${LOAD_BEFORE%% *}" 'BEGIN { exit !(l > 1.5) }'; then
		echo "(other work was running on the machine: times are upper bounds; request counts and coverage do not depend on it)."
	fi
	echo
	echo "Command: \`scripts/bench-aah.sh\` (the tests \`TestWordPressAAH\`, \`TestMediaWikiAAH\` and \`TestDokuWikiAAH\`"
	echo "of package \`kb/aah\`, on the real CMSs of \`../shared/cms\`: WordPress 6.1 with twentytwentyone, MediaWiki 1.39,"
	echo "DokuWiki 2022-07-31). mneme crawls with the application-aware helper, politeness off, from the site's home page."
	echo "\`$(wget --version | head -1 | cut -d' ' -f1-3) --recursive --level=inf --no-parent -e robots=off\` crawls the same sites in the same run"
	echo "(on the wikis with \`--no-directories\`, for at most $WGET_LIMIT s: histories, diffs, revisions and media views may keep it going;"
	echo "wget exit status 4: a network failure, such as an external host it could not resolve; 8: error responses such as 404s);"
	echo "requests are HTTP requests made (mneme's include robots.txt and the pages' stylesheets, scripts and fonts)."
	echo "2-grams are the distinct word 2-grams of the pages' visible text (blocks of text split at block elements);"
	echo "on WordPress those of wget's HTML pages, leaving out as boilerplate the blocks found on half of wget's pages"
	echo "or more; on the wikis those of every article as the wiki renders it (MediaWiki: \`api.php?action=parse\`"
	echo "of each main-namespace page; DokuWiki: \`do=export_xhtmlbody\` of each page of its data directory)."
	echo "Posts and comments are exact when title, author, date (GMT) and text (white space collapsed) equal the"
	echo "database's and, for a comment, its \`sioc:reply_of\` is its parent comment or post."
	echo
	echo "| site | wget requests | wget s | AAH requests | AAH s | fewer requests | 2-grams covered | external links covered | objects exact / stored |"
	echo "|---|---|---|---|---|---|---|---|---|"
	echo "| WordPress | $(field WordPress wget_requests) | $(field WordPress wget_s) | $(field WordPress aah_requests) | $(field WordPress aah_s) | **$(field WordPress ratio)×** | $(field WordPress bigrams) % of $(field WordPress bigrams_of) | $(field WordPress external) % of $(field WordPress external_of) | posts $(field WordPress posts), comments $(field WordPress comments) |"
	for site in MediaWiki DokuWiki; do
		fewer=$(awk -v w="${WIKI_WGET_N[$site]}" -v a="$(field $site aah_requests)" 'BEGIN { printf "%.1f", w / a }')
		case ${WIKI_WGET[$site]} in *"not ended"*) fewer="> $fewer" ;; esac
		echo "| $site | ${WIKI_WGET[$site]} | ${WIKI_WGET_S[$site]} | $(field $site aah_requests) | $(field $site aah_s) | $fewer× | $(field $site bigrams) % of $(field $site bigrams_of) | – | pages stored $(field $site pages) |"
	done
	echo
	echo "Acceptance targets: ≥ 7× fewer requests than wget on WordPress, ≥ 98 % of the 2-grams, ≥ 99 % of the external links,"
	echo "every post and comment exact; on the wikis, a crawl that ends, ≥ 98 % of the article 2-grams, every page stored."
	echo "<!-- aah:end -->"
} >"$section"

doc=$ROOT/docs/benchmarks.md
if grep -q '<!-- aah:begin' "$doc"; then
	awk -v f="$section" '
		/<!-- aah:begin/ { while ((getline l < f) > 0) print l; skip = 1; next }
		/<!-- aah:end -->/ { skip = 0; next }
		!skip { print }' "$doc" >"$doc.new" && mv "$doc.new" "$doc"
else
	{ echo; cat "$section"; } >>"$doc"
fi
rm -f "$section"
log "wrote $doc"
