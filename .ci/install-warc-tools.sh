#!/usr/bin/env bash
# Installs the external tools crawler/warc's tests verify WARC files with:
# warcio.js 2.4.11 (its cdx-index is the reference CDXJ, its parser drives
# crawler/warc/testdata/verify-warc.mjs). Installed outside the module tree, in
# $MNEME_TOOLS (default ~/.cache/mneme-tools), where the tests look for it.
set -euo pipefail
tools="${MNEME_TOOLS:-$HOME/.cache/mneme-tools}"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	apt-get update -qq
	apt-get install -y -qq nodejs npm >/dev/null
fi
if [ "$(node -p 'require(process.argv[1]).version' "$tools/warcio/node_modules/warcio/package.json" 2>/dev/null)" != "2.4.11" ]; then
	mkdir -p "$tools/warcio"
	cd "$tools/warcio"
	[ -f package.json ] || printf '{"name":"mneme-warc-tools","private":true}\n' >package.json
	npm install --no-audit --no-fund --loglevel=error warcio@2.4.11
fi
