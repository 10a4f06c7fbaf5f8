# Shared by the benchmark scripts: installs and drives the systems mneme is
# compared with, Virtuoso 7 (Debian package, one server per run in its own
# directory) and Oxigraph (JS/WASM build from npm).
# The caller sets WORK (work directory), VPORT and VHTTP (Virtuoso's SQL
# and HTTP ports) and defines log.

OXIGRAPH_VERSION=0.5.11

# install_peers installs virtuoso-opensource-7 and oxigraph when missing.
install_peers() {
	if ! command -v virtuoso-t >/dev/null; then
		log "installing virtuoso-opensource-7"
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq virtuoso-opensource-7 >/dev/null
	fi
	if [ ! -d "$WORK/oxigraph/node_modules/oxigraph" ]; then
		log "installing oxigraph@$OXIGRAPH_VERSION"
		mkdir -p "$WORK/oxigraph"
		(cd "$WORK/oxigraph" && npm install --silent --no-audit --no-fund "oxigraph@$OXIGRAPH_VERSION" >/dev/null)
	fi
}

# oxigraph_node runs node with the installed oxigraph on its path.
oxigraph_node() {
	env NODE_PATH="$WORK/oxigraph/node_modules" node --max-old-space-size=16384 "$@"
}

VPID=""
# start_virtuoso starts an empty Virtuoso server in $VDIR (default
# $WORK/virtuoso) with a large buffer pool and no cap on result rows or
# query time; with VREUSE set it restarts on the database already there.
start_virtuoso() {
	local dir=${VDIR:-$WORK/virtuoso}
	[ -n "${VREUSE:-}" ] || rm -rf "$dir"
	mkdir -p "$dir"
	sed -e "s|/var/lib/virtuoso-opensource-7/db|$dir|g" \
		-e "s|^ServerPort *= *1111|ServerPort = $VPORT|" \
		-e "s|^ServerPort *= *8890|ServerPort = $VHTTP|" \
		-e "s|^DirsAllowed *=.*|DirsAllowed = ., $WORK|" \
		-e "s|^NumberOfBuffers *=.*|NumberOfBuffers = 680000|" \
		-e "s|^MaxDirtyBuffers *=.*|MaxDirtyBuffers = 500000|" \
		-e "s|^ResultSetMaxRows *=.*|ResultSetMaxRows = 100000000|" \
		-e "s|^MaxQueryExecutionTime *=.*|MaxQueryExecutionTime = 0|" \
		/etc/virtuoso-opensource-7/virtuoso.ini >"$dir/virtuoso.ini"
	(cd "$dir" && exec virtuoso-t +configfile "$dir/virtuoso.ini" +foreground >"$dir/stdout.log" 2>&1) &
	VPID=$!
	for _ in $(seq 120); do
		isql-vt "$VPORT" dba dba exec="status();" >/dev/null 2>&1 && return 0
		sleep 1
	done
	log "virtuoso did not start"; cat "$dir/virtuoso.log" >&2; return 1
}
stop_virtuoso() {
	if [ -n "$VPID" ]; then
		isql-vt "$VPORT" dba dba exec="shutdown();" >/dev/null 2>&1 || true
		wait "$VPID" 2>/dev/null || true
		VPID=""
	fi
}
# vsql runs one SQL statement; its output goes to stdout and isql.log.
vsql() {
	if ! isql-vt "$VPORT" dba dba exec="$1" >"$WORK/isql.out" 2>&1 || grep -q '^\*\*\* Error' "$WORK/isql.out"; then
		cat "$WORK/isql.out" >>"$WORK/isql.log"
		log "isql failed on: $1"
		return 1
	fi
	cat "$WORK/isql.out" | tee -a "$WORK/isql.log"
}
# The server's peak RSS, from the kernel's high-water mark.
virtuoso_rss_mb() { awk '/VmHWM/ {print int($2/1024)}' "/proc/$VPID/status"; }
