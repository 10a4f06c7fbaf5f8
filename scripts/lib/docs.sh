# Shared by the benchmark scripts: writes their figures to docs/benchmarks.md.
# The caller sets ROOT (the repository).

# put_block NAME SCRIPT FILE replaces the block between NAME's markers in
# docs/benchmarks.md with FILE (the markers say SCRIPT wrote it), or
# appends it.
put_block() {
	local doc=$ROOT/docs/benchmarks.md
	local begin="<!-- $1:begin (written by $2) -->" end="<!-- $1:end -->"
	local f
	[ -f "$doc" ] || printf '# Benchmarks\n\n' >"$doc"
	f=$(mktemp)
	{ echo "$begin"; cat "$3"; echo "$end"; } >"$f"
	if grep -qF "<!-- $1:begin" "$doc"; then
		awk -v f="$f" -v b="<!-- $1:begin" -v e="$end" '
			index($0, b) == 1 { while ((getline l < f) > 0) print l; skip = 1; next }
			$0 == e { skip = 0; next }
			!skip { print }' "$doc" >"$doc.new" && mv "$doc.new" "$doc"
	else
		{ echo; cat "$f"; } >>"$doc"
	fi
	rm -f "$f"
}
