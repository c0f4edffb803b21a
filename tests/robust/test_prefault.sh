#!/bin/sh
# test_prefault.sh - the memory model's walk on a module parsed in pieces
# has a helper thread fault its tables in ahead of it (src/ir/prefault.c,
# docs/bench.md "A helper that faults pages in").  On a module of 120,000
# instructions (a buffer table of 11 MB) `mem`, `check --format json` and
# `annotate --apply` print byte for byte what they print serially (-j 1,
# no helper) and with the helper turned off (HLO_NO_PREFAULT=1), and
# HLO_PREFAULT_TRACE shows the helper populated pages, and that no helper
# runs with -j 1 or when turned off.  check-tsan runs it too.
. tests/lib.sh

awk 'BEGIN {
	n = 120000
	print "HloModule chain, is_scheduled=true\n"
	print "ENTRY %main (a: f32[8], b: f32[8]) -> f32[8] {\n  %c.0 = f32[8]{0} parameter(0)"
	print "  %b = f32[8]{0} parameter(1)"
	for (k = 1; k <= n; k++)
		printf "  %s%%c.%d = f32[8]{0} %s(%%c.%d%s)\n", k == n ? "ROOT " : "", k, k % 3 ? "negate" : "add",
		       k - 1, k % 3 ? "" : ", %b"
	print "}"
}' >"$tmp/chain.hlo"

for cmd in "mem" "check --no-config --format json --target tpu-v5e" "annotate --no-config --apply --target tpu-v5e"; do
	# shellcheck disable=SC2086  # cmd is split on purpose
	base "" $cmd -j 1 "$tmp/chain.hlo"
	# shellcheck disable=SC2086
	agree "HLO_PARSE_PIECES_MIN=1" $cmd -j 2 "$tmp/chain.hlo"
	# shellcheck disable=SC2086
	agree "HLO_PARSE_PIECES_MIN=1 HLO_NO_PREFAULT=1" $cmd -j 2 "$tmp/chain.hlo"
done

# pages HOW...: the pages the helper reported ("none" without a report).
pages() {
	env HLO_PREFAULT_TRACE=1 "$@" "$HLOLINT" mem "$tmp/chain.hlo" 2>&1 >/dev/null |
		sed -n 's/^hlolint: prefault: \([0-9]*\) pages in [0-9]* calls$/\1/p' | grep . || echo none
}
n=$(pages HLO_PARSE_PIECES_MIN=1 HLOLINT_THREADS=2)
[ "$n" != none ] && [ "$n" -gt 0 ] || fail "the helper reported ${n} pages of the walk's tables populated (expected some)"
[ "$(pages HLO_PARSE_PIECES_MIN=1 HLO_NO_PREFAULT=1)" = none ] || fail "HLO_NO_PREFAULT=1: a helper ran"
[ "$(pages HLO_PARSE_PIECES_MIN=999999999999)" = none ] || fail "a small module (not in pieces) had a helper"
exit $st
