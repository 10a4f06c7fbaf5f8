#!/usr/bin/env bash
# Installs and serves the real CMSs the kb tests check against (WordPress,
# MediaWiki, DokuWiki on 127.0.0.1:8081-8083, from Debian packages; needs
# root and apt). Without ../shared the tests that need them skip.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f ../shared/cms/setup-cms.sh ]; then
  bash ../shared/cms/setup-cms.sh
  # kb/aah compares its WordPress crawl with wget --recursive's.
  command -v wget >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wget >/dev/null; }
else
  echo "CI: ../shared/cms absent: the live CMS tests will skip"
fi
