# lib.sh - what shell tests share, sourced as `. tests/lib.sh` from the
# project root (run.sh runs them there): LC_ALL=C, $HLOLINT, a scratch
# directory $tmp removed on exit, and fail(), which prints and sets $st
# (the test ends with `exit $st`).  Not a test itself.
LC_ALL=C
export LC_ALL
HLOLINT=${HLOLINT:-build/hlolint}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-test.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
st=0
fail() {
	echo "FAIL: $*"
	st=1
}

# The third-party modules of ../shared/corpora/real in $c; the test is
# skipped (exit 77, saying so) when they are absent.
corpus_real() {
	c=../shared/corpora/real
	if [ ! -d "$c" ]; then
		echo "skip: $c is absent (third-party corpus, read-only, not in the project)"
		exit 77
	fi
}

# expect_rule FILE PATTERN COUNT [OPTIONS...]: `check --format json
# OPTIONS $c/FILE` prints COUNT lines matching PATTERN and exits 0 or 1.
# A crash or an error fails even when COUNT is 0.  $EXPECT_OPTS (a test's
# common options, e.g. its --select) come first.
expect_rule() {
	_f=$1 _pat=$2 _want=$3
	shift 3
	# shellcheck disable=SC2086  # EXPECT_OPTS is split on purpose
	"$HLOLINT" check --no-config --format json $EXPECT_OPTS "$@" "$c/$_f" >"$tmp/rule.out" 2>"$tmp/rule.err"
	_rc=$?
	if [ "$_rc" -gt 1 ]; then
		fail "$_f $*: exit $_rc: $(head -n 1 "$tmp/rule.err")"
		return
	fi
	_n=$(grep -c -e "$_pat" "$tmp/rule.out")
	[ "$_n" -eq "$_want" ] || fail "$_f $*: $_n lines match '$_pat', expected $_want"
}

# base ENV ARGS...: `$HLOLINT ARGS` under the environment assignments ENV
# (one word, space separated; "" for none) into $tmp/base.*; an exit
# above 2 (a crash) fails.  agree ENV ARGS... then runs another way and
# fails unless it prints the same output and errors with the same exit.
base() {
	_env=$1
	shift
	# shellcheck disable=SC2086  # ENV is split on purpose
	env $_env "$HLOLINT" "$@" >"$tmp/base.out" 2>"$tmp/base.err"
	base_rc=$?
	[ "$base_rc" -le 2 ] || fail "$*: exit $base_rc"
}
agree() {
	_env=$1
	shift
	# shellcheck disable=SC2086
	env $_env "$HLOLINT" "$@" >"$tmp/agree.out" 2>"$tmp/agree.err"
	_rc=$?
	[ "$_rc" = "$base_rc" ] || fail "$_env $*: exit $_rc, $base_rc the other way"
	cmp -s "$tmp/base.out" "$tmp/agree.out" || fail "$_env $*: output differs"
	cmp -s "$tmp/base.err" "$tmp/agree.err" || fail "$_env $*: errors differ"
}

# jnum KEY FILE: the number of "KEY": N in pretty-printed JSON (the first).
jnum() { sed -n "s/^ *\"$1\": \\([0-9][0-9]*\\),\\{0,1\\}\$/\\1/p" "$2" | head -n 1; }

# The -I flags of the source tree (one directory per stage, as the Makefile
# sets them), for tests that compile C against build/libhlolint.a.
src_includes() {
	for d in src/*/; do printf -- '-I%s ' "${d%/}"; done
	printf -- '-Ipasses'
}
