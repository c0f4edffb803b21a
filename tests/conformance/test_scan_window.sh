#!/bin/sh
# suite: long
# test_scan_window.sh - the scanner copies its input a window at a time (256
# KiB by default; HLO_SCAN_WINDOW=N forces N-byte windows).  Output must not depend
# on where windows are cut: with 4 KiB windows, fmt prints the same bytes,
# the same diagnostics and the same status as with the default, for
#   - every tests/parse input, every real module and every xla ok/ input
#     (those under ../shared/corpora are skipped when it is absent),
#   - multi-line constructs (longer than a padding line, so that some cut
#     falls inside each) whose inner lines look like instruction starts
#     (block comment, strings in metadata, in an attribute and in a JSON
#     dict, JSON dict, constant literal, block comments inside a literal and
#     a metadata block, an instruction over two lines) slid across a window
#     boundary one line at a time (a string runs past the window: the
#     window moves),
#   - an error 1 MB into a file (its line:col must not move).
HLOLINT=${HLOLINT:-build/hlolint}
TESTS_DIR=${TESTS_DIR:-tests}
CORPORA=${CORPORA:-../shared/corpora}
W=${WINDOW:-4096}
LC_ALL=C
export LC_ALL
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-win.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
runs=0

same() {  # same LABEL FILE: fmt with default and small windows agree
	runs=$((runs + 1))
	timeout 60 "$HLOLINT" fmt "$2" >"$tmp/a.out" 2>"$tmp/a.err"
	ra=$?
	HLO_SCAN_WINDOW=$W timeout 60 "$HLOLINT" fmt "$2" >"$tmp/b.out" 2>"$tmp/b.err"
	rb=$?
	# Agreeing is not enough: both must have finished (0 or 2).
	if [ "$ra" -gt 2 ] || [ "$rb" -gt 2 ]; then
		fails=$((fails + 1))
		[ "$fails" -le 15 ] && echo "FAIL $1: fmt exited $ra, with HLO_SCAN_WINDOW=$W $rb"
		return 1
	fi
	if [ "$ra" -ne "$rb" ] || ! cmp -s "$tmp/a.out" "$tmp/b.out" || ! cmp -s "$tmp/a.err" "$tmp/b.err"; then
		fails=$((fails + 1))
		if [ "$fails" -le 15 ]; then
			echo "FAIL $1: exit $ra vs $rb with HLO_SCAN_WINDOW=$W"
			{ diff "$tmp/a.err" "$tmp/b.err"; diff "$tmp/a.out" "$tmp/b.out"; } | grep -m 4 '^[<>]' | cut -c1-160
		fi
		return 1
	fi
	return 0
}

# 1. Existing inputs.
n=0
for f in "$TESTS_DIR"/parse/*.hlo "$CORPORA"/real/*/*.hlo "$CORPORA"/xla-parser-tests/ok/*.hlo; do
	[ -f "$f" ] || continue
	same "$f" "$f" && n=$((n + 1))
done
echo "existing inputs: $n agree"

# 2. Multi-line constructs slid across a boundary.
gen() {  # gen FILE PADDING-LINES CONSTRUCT
	awk -v n="$2" -v c="$3" 'BEGIN {
		printf "HloModule m\n\nENTRY %%main {\n  %%p = f32[] parameter(0)\n"
		for (i = 0; i < n; i++) printf "  // padding line %03d xxxxxxxxxxxxxxxxxxxxxxxx\n", i
		printf "%s\n  ROOT %%r = f32[] negate(%%p)\n}\n", c
	}' >"$1"
}
comment='  /* a comment
%fake = f32[] parameter(9)
}
ROOT %fake2 = f32[] parameter(8)
*/
  %a = f32[] negate(%p)'
string='  %a = f32[] negate(%p), metadata={op_name="line one
%fake = f32[] parameter(9)
}
ROOT x
%fake2 = f32[] parameter(8)
}
ROOT x2"}'
string2='  %a = f32[] custom-call(%p), custom_call_target="first
%fake = f32[] parameter(9)
}
ROOT y
%fake2 = f32[] parameter(8)
}
ROOT y2"'
jsonstr='  %a = f32[] negate(%p), backend_config={"k": "one
%fake = f32[] parameter(9)
}
ROOT z
%fake2 = f32[] parameter(8)
}
ROOT z2"}'
json='  %a = f32[] negate(%p), backend_config={
"k": {
%"x": 1
}
}'
literal='  %a = f32[2,2]{1,0} constant({
{1, 2},
}
{3, 4}
})'
# Block comments inside a constant literal and a metadata block, whose
# lines look like instruction starts or end in commas (issue 45: a cut
# there was an "unterminated comment"); an instruction written over two
# lines, and a short-named one, whose look-ahead must not be cut off.
litcomment='  %a = f32[2,2]{1,0} constant({ /* one,
two,
}
%x = three */
{1, 2},
{3, 4}
})'
mdcomment='  %a = f32[] negate(%p), metadata={op_name="a" /* c,
%y = d */ source_line=3}'
split='  b
  = f32[] negate(%p)
  c = f32[] negate(b), sharding=
{replicated}'
for kind in comment string string2 jsonstr json literal litcomment mdcomment split; do
	eval "c=\$$kind"
	bad=
	pad=$((W / 48 - 16))
	end=$((W / 48 + 4))
	while [ "$pad" -le "$end" ]; do
		gen "$tmp/$kind.hlo" "$pad" "$c"
		same "$kind construct, $pad padding lines" "$tmp/$kind.hlo" >/dev/null || bad="$bad $pad"
		pad=$((pad + 1))
	done
	if [ -n "$bad" ]; then
		echo "FAIL multi-line $kind cut by a window: differs at padding$bad"
	else
		echo "ok   multi-line $kind across a window boundary"
	fi
done

# 3. An error far into the file.
awk 'BEGIN {
	printf "HloModule m\n\nENTRY %%main {\n  %%a0 = f32[] parameter(0)\n"
	for (i = 1; i < 30000; i++) printf "  %%a%d = f32[] negate(%%a%d)\n", i, i - 1
	printf "  ROOT %%r = f32[] negate(%%nope)\n}\n"
}' >"$tmp/far.hlo"
if same "error 1 MB in" "$tmp/far.hlo"; then echo "ok   error location 1 MB in"; fi

echo "$runs comparisons, $fails differ"
[ "$fails" -eq 0 ]
