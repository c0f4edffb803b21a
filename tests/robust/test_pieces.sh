#!/bin/sh
# suite: long
# test_pieces.sh - one large input is parsed in pieces on threads
# (parse.c), its computations verified in parts (verify.c), and its total
# allocation computed beside the rules (mem.c; a rule reading it before
# mem_settle prints other figures than the serial run).
# HLO_PARSE_PIECES_MIN=1 makes every input large enough, so on
# corpora/xla's compiles and the real corpus (when present) `fmt`, `mem`
# and `check --format json` print byte for byte what the serial parse
# prints, with 2, 3 and 5 pieces; HLO_PARSE_PIECES_TRACE shows the inputs
# were split.  Inputs the cut cannot take (a "}" + blank line + "%" inside
# a comment or a string, a second module, syntax errors) go to the serial
# parse and print the same diagnostics; so do the fuzz crashers and
# tests/badinput, which must not crash a piece.  A module that parses but
# that the verifier rejects, or warns about, in several computations is
# verified again serially, with the serial diagnostics.
. tests/lib.sh
serial=999999999999999

# same FILE: fmt, mem and check outputs and exit statuses agree.
same() {
	for cmd in "fmt" "mem" "check --no-config --format json --target tpu-v5e"; do
		# shellcheck disable=SC2086  # cmd is split on purpose
		base "HLO_PARSE_PIECES_MIN=$serial" $cmd -j 1 "$1"
		for j in 2 3 5; do
			# shellcheck disable=SC2086
			agree HLO_PARSE_PIECES_MIN=1 $cmd -j $j "$1"
		done
	done
}
# fmt takes no -j: it splits by the cores; mem and check by -j.
# PIECES_EVERY=N compares every Nth corpus input only (check-tsan: the
# ThreadSanitizer build is many times slower; the plain suite takes all).
every=${PIECES_EVERY:-1}
n=0
split=0
for z in corpora/xla/out/*/*/*/after_optimizations.hlo.gz corpora/examples/*.hlo; do
	n=$((n + 1))
	[ $((n % every)) = 0 ] || continue
	same "$z"
	HLO_PARSE_PIECES_MIN=1 HLO_PARSE_PIECES_TRACE=1 "$HLOLINT" parse -j 3 "$z" 2>&1 | grep -q ': 3 pieces$' &&
		split=$((split + 1))
done
[ $split -ge $((n / every / 2)) ] || fail "only $split of $((n / every)) inputs were split in 3 pieces"

# HLOLINT_THREADS is the default of -j (the pieces of one input), -j wins
# over it, and anything but 1 to 64 is a usage error.
big=$(ls -S corpora/xla/out/*/*/*/after_optimizations.hlo.gz | head -n 1)
pieces() {
	env HLO_PARSE_PIECES_MIN=1 HLO_PARSE_PIECES_TRACE=1 "$@" "$HLOLINT" parse "$big" 2>&1 |
		sed -n 's/.*: \([0-9]*\) pieces$/\1/p' | head -n 1
}
[ "$(pieces HLOLINT_THREADS=3)" = 3 ] || fail "HLOLINT_THREADS=3: $(pieces HLOLINT_THREADS=3) pieces, expected 3"
[ "$(env HLO_PARSE_PIECES_MIN=1 HLO_PARSE_PIECES_TRACE=1 HLOLINT_THREADS=3 "$HLOLINT" parse -j 2 "$big" 2>&1 |
	sed -n 's/.*: \([0-9]*\) pieces$/\1/p' | head -n 1)" = 2 ] || fail "-j 2 under HLOLINT_THREADS=3: not 2 pieces"
for v in 0 65 x -2 "3 "; do
	HLOLINT_THREADS="$v" "$HLOLINT" parse "$big" >"$tmp/env.out" 2>"$tmp/env.err"
	rc=$?
	[ $rc = 2 ] && [ ! -s "$tmp/env.out" ] && grep -q "^hlolint: error: HLOLINT_THREADS must be a number" "$tmp/env.err" ||
		fail "HLOLINT_THREADS='$v': exit $rc, $(head -c 200 "$tmp/env.err")"
done

# Broken inputs (fuzz crashers, tests/badinput): every piece sees its own
# syntax errors, and none may crash it (the serial parse reports them).
for f in tests/fuzz/crashers/*.hlo tests/badinput/*.hlo; do
	same "$f"
done

if [ -d ../shared/corpora/real ]; then
	k=0
	for f in $(find ../shared/corpora/real -type f \( -name '*.txt' -o -name '*.hlo' -o -name '*.gz' \) | sort); do
		k=$((k + 1))
		[ $((k % every)) = 0 ] || continue
		same "$f"
	done
else
	echo "note: ../shared/corpora/real is absent; its part is skipped"
fi

# Cuts the parse must refuse: the serial parse decides, with its diagnostics.
{
	printf 'HloModule m\n\n%%a (x: f32[]) -> f32[] {\n  %%x = f32[] parameter(0)\n'
	for k in 1 2 3 4 5 6 7 8 9 10 11 12; do printf '  %%n%s = f32[] negate(%%x)\n' $k; done
	printf '  ROOT %%r = f32[] negate(%%x)\n}\n\n'
} >"$tmp/comment.hlo"
# The first cut after the middle is in the comment.
cat >>"$tmp/comment.hlo" <<'EOF'
/* a comment holding a computation's end:
}

%b (y: f32[]) -> f32[] {
*/
ENTRY %main (p: f32[]) -> f32[] {
  %p = f32[] parameter(0)
  ROOT %c = f32[] call(%p), to_apply=%a
}
EOF
cat >"$tmp/two.hlo" <<'EOF'
HloModule one

%a (x: f32[]) -> f32[] {
  ROOT %x = f32[] parameter(0)
}

ENTRY %main (p: f32[]) -> f32[] {
  ROOT %p = f32[] parameter(0)
}

HloModule two

%b (x: f32[]) -> f32[] {
  ROOT %x = f32[] parameter(0)
}

ENTRY %main (p: f32[]) -> f32[] {
  ROOT %p = f32[] parameter(0)
}
EOF
sed 's/parameter(0)$/paramter(0)/' "$tmp/two.hlo" >"$tmp/bad.hlo"
for f in comment two bad; do
	same "$tmp/$f.hlo"
	HLO_PARSE_PIECES_MIN=1 HLO_PARSE_PIECES_TRACE=1 "$HLOLINT" parse -j 2 "$tmp/$f.hlo" >/dev/null 2>"$tmp/trace"
	# Several modules are seen before the pieces are parsed (issue 45: they
	# were parsed in pieces for nothing first): not parsed twice.
	want='parsed again serially'
	[ $f = comment ] || want='several modules: parsed serially'
	grep -q "$want" "$tmp/trace" || fail "$f.hlo: $(cat "$tmp/trace"), want '$want'"
done
grep -q "unknown opcode 'paramter'" "$tmp/base.err" || fail "bad.hlo's error was not reported"

# Verified in parts: clean, then with errors and warnings in both halves.
vmodule() {  # vmodule BODY-LINE-OF-COMPUTATION-K... (printf format, %s = k)
	printf 'HloModule v\n\n'
	for k in 1 2 3 4 5 6; do
		printf '%%c%s (x: f32[]) -> f32[] {\n  %%x = f32[] parameter(0)\n' $k
		# shellcheck disable=SC2059  # the format is the caller's
		printf "  ROOT %%r = f32[] $1\n}\n\n" $k
	done
	printf 'ENTRY %%main (p: f32[]) -> (f32[], f32[]) {\n  %%p = f32[] parameter(0)\n'
	for k in 1 2 3 4 5 6; do printf '  %%y%s = f32[] call(%%p), to_apply=%%c%s\n' $k $k; done
	printf '  ROOT %%t = (f32[], f32[]) tuple(%%y1, %%y6)\n}\n'
}
vmodule 'negate(%%x), metadata={op_name="c%s"}' >"$tmp/vok.hlo"
vmodule 'negate(%%x, %%x), metadata={op_name="c%s"}' >"$tmp/verr.hlo"
vmodule 'negate(%%x), frontend_hint=%s' >"$tmp/vwarn.hlo"
for f in vok verr vwarn; do
	same "$tmp/$f.hlo"
	HLO_PARSE_PIECES_MIN=1 HLO_PARSE_PIECES_TRACE=1 "$HLOLINT" parse --max-errors 0 -j 2 "$tmp/$f.hlo" \
		>/dev/null 2>"$tmp/trace"
	want=': verified in 2 parts, begun beside resolve, again serially$'
	[ $f = vok ] && want=': verified in 2 parts, begun beside resolve$'
	grep -q "$want" "$tmp/trace" || fail "$f.hlo: no '$want' in $(cat "$tmp/trace")"
	case $f in
	verr) [ "$(grep -c 'takes 1 operand, got 2' "$tmp/base.err")" = 6 ] || fail "verr.hlo: not its 6 errors" ;;
	vwarn) [ "$(grep -c "unknown attribute 'frontend_hint'" "$tmp/base.err")" = 1 ] ||
		fail "vwarn.hlo: not its one warning" ;;
	esac
done
# Computations resolve has work on (each calls %leaf) are passed by the
# verifier's thread while resolve runs and checked once it is done: their
# errors are found there, and reported by the serial check.  A cycle of
# calls fails resolve: the verifier's thread is stopped, nothing of it
# reported.  HLO_VERIFY_EARLY_WAIT holds resolve until the thread has
# claimed all it can, so that it always passes them.
vcalls() {  # vcalls ROOT-OF-COMPUTATION-K (printf format, %s = k)
	printf 'HloModule v\n\n%%leaf (x: f32[]) -> f32[] {\n  ROOT %%x = f32[] parameter(0)\n}\n\n'
	for k in 1 2 3 4 5 6; do
		printf '%%c%s (x: f32[]) -> f32[] {\n  %%x = f32[] parameter(0)\n' $k
		printf '  %%l = f32[] call(%%x), to_apply=%%leaf\n'
		# shellcheck disable=SC2059  # the format is the caller's
		printf "  ROOT %%r = f32[] $1\n}\n\n" $k
	done
	printf 'ENTRY %%main (p: f32[]) -> f32[] {\n  %%p = f32[] parameter(0)\n'
	printf '  ROOT %%y = f32[] call(%%p), to_apply=%%c1\n}\n'
}
vcalls 'negate(%%l, %%l), metadata={op_name="c%s"}' >"$tmp/vheld.hlo"
vcalls 'negate(%%l)' | sed 's/to_apply=%leaf$/to_apply=%c6/' >"$tmp/vcycle.hlo"
for f in vheld vcycle; do
	same "$tmp/$f.hlo"
	agree "HLO_PARSE_PIECES_MIN=1 HLO_VERIFY_EARLY_WAIT=1" check --no-config --format json --target tpu-v5e \
		-j 2 "$tmp/$f.hlo"
	HLO_PARSE_PIECES_MIN=1 HLO_PARSE_PIECES_TRACE=1 "$HLOLINT" parse --max-errors 0 -j 2 "$tmp/$f.hlo" \
		>/dev/null 2>"$tmp/trace"
	grep -q ': 2 pieces$' "$tmp/trace" || fail "$f.hlo was not split: $(cat "$tmp/trace")"
	case $f in
	vheld)
		grep -q ': verified in 2 parts, begun beside resolve, again serially$' "$tmp/trace" ||
			fail "vheld.hlo: not verified beside resolve: $(cat "$tmp/trace")"
		[ "$(grep -c 'takes 1 operand, got 2' "$tmp/base.err")" = 6 ] || fail "vheld.hlo: not its 6 errors" ;;
	vcycle)
		grep -q 'verified in' "$tmp/trace" && fail "vcycle.hlo: verified after resolve failed"
		grep -q 'calls itself' "$tmp/base.err" || fail "vcycle.hlo: no cycle reported: $(cat "$tmp/base.err")" ;;
	esac
done

# A signature whose result is not its root's shape, in both halves: the
# pieces check it as a computation closes (nothing left to infer) and the
# input goes to the serial parse, which reports both.
vmodule 'negate(%%x)' | sed 's/^%c\([16]\) (x: f32\[\]) -> f32\[\]/%c\1 (x: f32[]) -> s32[]/' >"$tmp/vsig.hlo"
same "$tmp/vsig.hlo"
[ "$(grep -c 'signature result s32\[\] does not match the root shape f32\[\]' "$tmp/base.err")" = 2 ] ||
	fail "vsig.hlo: not its 2 errors: $(head -c 300 "$tmp/base.err")"
HLO_PARSE_PIECES_MIN=1 HLO_PARSE_PIECES_TRACE=1 "$HLOLINT" parse -j 2 "$tmp/vsig.hlo" >/dev/null 2>"$tmp/trace"
grep -q 'parsed again serially' "$tmp/trace" || fail "vsig.hlo was not parsed again serially: $(cat "$tmp/trace")"

# Shapes left to infer from a callee in a piece: the piece lists the
# instructions the serial resolve still has work on (resolve_keep_pending),
# those naming computations and those without a shape (%g, %n).
vmodule 'negate(%%x)' | sed -e 's/^  %y1 = f32\[\] call/  %y1 = call/' \
	-e 's/^  ROOT %t = .*/  %g = negate(%y1)\n  %n = negate(%g)\n  ROOT %t = (f32[], f32[]) tuple(%n, %y6)/' \
	>"$tmp/vinf.hlo"
same "$tmp/vinf.hlo"
HLO_PARSE_PIECES_MIN=1 HLO_PARSE_PIECES_TRACE=1 "$HLOLINT" fmt -j 2 "$tmp/vinf.hlo" >"$tmp/out" 2>"$tmp/trace"
grep -q ': 2 pieces$' "$tmp/trace" || fail "vinf.hlo was not split: $(cat "$tmp/trace")"
grep -q '^  %n = f32\[\] negate(%g)' "$tmp/out" || fail "vinf.hlo: %n's shape was not inferred: $(cat "$tmp/out")"
exit $st
