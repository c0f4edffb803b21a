# apply.sh - what the live --apply checks share, sourced after tests/lib.sh
# (not a check itself: check-xla runs check_*.sh).  $XLA_PY is the
# ground-truth environment's python (make check-xla sets it).

# apply_on T IN [OPTIONS...]: `annotate --no-config --apply --target T
# OPTIONS` of IN into $tmp/applied.hlo; $applied is how many suggestions it
# made (0 also when annotate failed, which fails the check).
apply_on() {
	_t=$1 _in=$2
	shift 2
	applied=0
	"$HLOLINT" annotate --no-config --apply --target "$_t" "$@" -o "$tmp/applied.hlo" "$_in" 2>"$tmp/apply.err"
	_rc=$?
	if [ "$_rc" -gt 1 ]; then
		fail "$_t: annotate --apply exited $_rc: $(head -n 1 "$tmp/apply.err")"
		return
	fi
	applied=$(sed -n 's|^// hlolint: --apply made \([0-9]*\) of.*|\1|p' "$tmp/applied.hlo")
	applied=${applied:-0}
}

# xla_takes T: XLA's parser accepts $tmp/applied.hlo (else the check
# fails); XLA's attempt to recompile it for T is shown, whatever it says.
xla_takes() {
	"$XLA_PY" corpora/xla/xla_check.py parse "$tmp/applied.hlo" >"$tmp/xla.parse" 2>/dev/null
	grep -q '^ok ' "$tmp/xla.parse" || fail "$1: XLA rejects the applied module: $(cat "$tmp/xla.parse")"
	"$XLA_PY" corpora/xla/xla_check.py recompile "$tmp/applied.hlo" "$1" 2>/dev/null | cut -c1-160 |
		sed "s/^/  $1 recompile: /"
}

# within T OURS XLA PCT WHAT: prints hlolint's fall (OURS bytes) next to
# XLA's (XLA bytes); fails when they differ by more than PCT percent.
within() {
	_pct=$(awk -v a="$2" -v b="$3" 'BEGIN { printf "%+.1f", b ? 100 * (a - b) / b : 0 }')
	echo "$1: $5: hlolint -$2 bytes; XLA's offloaded twin -$3 ($_pct%)"
	awk -v p="${_pct#[+-]}" -v m="$4" 'BEGIN { exit !(p <= m) }' || fail "$1: prediction off by $_pct%"
}
