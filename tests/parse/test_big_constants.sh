#!/bin/sh
# test_big_constants.sh - a module whose last computation holds most of its
# text in constants (issue 45's "constants" shape) is still parsed in two
# pieces, the cut put before that computation (parse_pieces_cut searches
# back when none follows the middle), and its literals of 4 KiB and more
# are checked by whichever verify thread is free (verify_run_share).  Both
# must say what the serial parse and check say: nothing on a valid module,
# and on a literal that is bad at its end, the serial diagnostics (the
# threads only find that something is wrong).
. tests/lib.sh

# module VALUE-OF-THE-LAST-ELEMENT: 6 small computations, then an entry
# with 40 f16[1000] constants of about 6 KB each.
module() {
	printf 'HloModule big_constants\n\n'
	for k in 1 2 3 4 5 6; do
		printf '%%c%s (x: f16[1000]) -> f16[1000] {\n  %%x = f16[1000]{0} parameter(0)\n' $k
		printf '  ROOT %%r = f16[1000]{0} negate(%%x)\n}\n\n'
	done
	printf 'ENTRY %%main () -> f16[1000] {\n'
	for k in $(seq 40); do
		printf '  %%k%s = f16[1000]{0} constant({' $k
		seq -f '%.3f' 0.001 0.001 0.999 | tr '\n' ',' | sed 's/,/, /g'
		[ $k = 40 ] && printf '%s})\n' "$1" || printf '1.5})\n'
		printf '  %%y%s = f16[1000]{0} call(%%k%s), to_apply=%%c%s\n' $k $k $((k % 6 + 1))
	done
	printf '  ROOT %%t = f16[1000]{0} add(%%y1, %%y40)\n}\n'
}
module 1.5 >"$tmp/ok.hlo"
module 65520 >"$tmp/bad.hlo"
[ "$(wc -c <"$tmp/ok.hlo")" -gt 200000 ] || fail "the module is smaller than its test needs"

for f in ok bad; do
	for cmd in parse "check --no-config --format json --target tpu-v5e"; do
		# shellcheck disable=SC2086  # cmd is split on purpose
		base HLO_PARSE_PIECES_MIN=999999999999 $cmd -j 1 "$tmp/$f.hlo"
		# shellcheck disable=SC2086
		agree HLO_PARSE_PIECES_MIN=1 $cmd -j 2 "$tmp/$f.hlo"
	done
	HLO_PARSE_PIECES_MIN=1 HLO_PARSE_PIECES_TRACE=1 "$HLOLINT" parse -j 2 "$tmp/$f.hlo" >/dev/null 2>"$tmp/trace"
	grep -q ': 2 pieces$' "$tmp/trace" || fail "$f.hlo was not cut before its entry: $(cat "$tmp/trace")"
	want=': verified in 2 parts, begun beside resolve$'
	[ $f = bad ] && want=': verified in 2 parts, begun beside resolve, again serially$'
	grep -q "$want" "$tmp/trace" || fail "$f.hlo: no '$want' in $(cat "$tmp/trace")"
done
grep -q ':112:7026:.* error: value 65520 is out of range for f16$' "$tmp/base.err" ||
	fail "bad.hlo: not its error: $(head -c 300 "$tmp/base.err")"
exit $st
