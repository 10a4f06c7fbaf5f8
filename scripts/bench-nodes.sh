#!/usr/bin/env bash
# Crawler nodes benchmark (docs/nodes.md): cmd/mneme's BenchmarkNodeScaling
# crawls one politeness-bound loopback web with 1, 2 and 3 mneme node
# processes in turn, in the same run, and control/cluster's BenchmarkForward
# forwards URLs from one node to another's frontier through a real NATS
# server. Prints the figures for the "Crawler nodes" section of
# docs/benchmarks.md, with the machine's load.
#
#   scripts/bench-nodes.sh            # both, 3 runs of the forwarding benchmark
#   COUNT=1 scripts/bench-nodes.sh
set -euo pipefail

COUNT=${COUNT:-3}
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
go test -run '^$' -bench 'BenchmarkForward$' -benchtime 500000x -count "$COUNT" ./control/cluster/
go test -run '^$' -bench 'BenchmarkNodeScaling$' -benchtime 1x -timeout 20m ./cmd/mneme/
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
