#!/usr/bin/env bash
# Installs tmux (Debian package), in which cmd/mneme's end-to-end TUI test
# drives the real binary (send-keys, capture-pane). Without it the test
# skips locally and fails under CI.
set -euo pipefail
if ! command -v tmux >/dev/null; then
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux >/dev/null
fi
