#!/bin/sh
# run.sh - golden-file and shell test runner (POSIX sh, cproc/sparse style).
#
# Golden tests: every tests/**/X.hlo (or X.hlo.gz) runs `$HLOLINT <args> X.hlo`
# from the project root; its siblings say what is compared:
#   X.expected  stdout            X.err  stderr (exactly, carets included;
#   X.out.hlo   stdout, a rewritten module      without it stderr must be empty)
# Header comments in the first 5 lines of X.hlo:
#   // args: fmt --style=long    subcommand and options (default: parse)
#   // exit: N                   expected status (default 2 with X.err, else 0)
#   // known-fail: REASON        a pinned bug not fixed yet: a failure prints
#                                [XFAIL] and does not count; a pass prints
#                                [XPASS] and counts as a failure (drop the mark)
# Shell tests: every executable tests/**/test_*.sh runs from the project root
# with $HLOLINT exported; exit 0 = pass, 77 = skip (last stdout line = reason).
# A shell test with "# suite: long" in its first 10 lines (corpus sweeps,
# truncations, valgrind: minutes) runs in `make check-long`, not `make check`.
# Inputs under a data/ or fuzz/ directory are fixtures, not golden tests.
#
# Usage: tests/run.sh [PATTERN...]   (run only tests whose name contains one)
# Env:   HLOLINT=build/san/hlolint   binary under test (default build/hlolint)
#        UPDATE=1                    rewrite expectations from actual output
#        TESTS_DIR=dir TIMEOUT=20 SH_TIMEOUT=300
#        SUITE=fast (no long test), long (only them), all (default)
# Ends with exactly one line "N passed, M failed"; exits 1 if M > 0.

LC_ALL=C
export LC_ALL
cd "$(dirname "$0")/.." || exit 2
HLOLINT=${HLOLINT:-build/hlolint}
TESTS_DIR=${TESTS_DIR:-tests}
TIMEOUT=${TIMEOUT:-20}
SH_TIMEOUT=${SH_TIMEOUT:-300}
UPDATE=${UPDATE:-}
SUITE=${SUITE:-all}
export HLOLINT TESTS_DIR

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-tests.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

passed=0
failed=0
skipped=0
xfailed=0

selected() {
	[ $# -gt 1 ] || return 0
	sel_name=$1
	shift
	for sel_pat in "$@"; do
		case $sel_name in *"$sel_pat"*) return 0 ;; esac
	done
	return 1
}

pass() {
	passed=$((passed + 1))
	echo "[PASS] $1"
}

fail() {
	failed=$((failed + 1))
	echo "[FAIL] $1${2:+: $2}"
}

# compare NAME EXPECTED_FILE ACTUAL_FILE -> 0 when equal (or updated)
compare() {
	if [ -n "$UPDATE" ]; then
		if ! cmp -s "$2" "$3"; then
			cp "$3" "$2"
			echo "[UPDATED] $1 ($2)"
		fi
		return 0
	fi
	if [ ! -f "$2" ]; then
		return 0
	fi
	cmp -s "$2" "$3" && return 0
	echo "--- diff -u $2 (expected) actual"
	diff -a -u "$2" "$3" | sed '1,2d' | head -n 200
	return 1
}

# Golden tests.
find "$TESTS_DIR" -type f \( -name '*.hlo' -o -name '*.hlo.gz' \) \
	! -name '*.out.hlo' ! -path '*/data/*' ! -path '*/fuzz/*' | sort >"$tmp/golden"
[ "$SUITE" = long ] && : >"$tmp/golden"   # the golden tests are all fast
while IFS= read -r f; do
	case $f in
	*.hlo.gz) base=${f%.hlo.gz} ;;
	*) base=${f%.hlo} ;;
	esac
	name=${base#"$TESTS_DIR"/}
	selected "$name" "$@" || continue

	case $f in
	*.gz) hdr=$(gzip -dc "$f" 2>/dev/null | head -n 5) ;;
	*) hdr=$(head -n 5 "$f") ;;
	esac
	args=$(printf '%s\n' "$hdr" | sed -n 's|^[[:space:]]*//[[:space:]]*args:[[:space:]]*||p' | head -n 1)
	want=$(printf '%s\n' "$hdr" | sed -n 's|^[[:space:]]*//[[:space:]]*exit:[[:space:]]*\([0-9][0-9]*\).*|\1|p' | head -n 1)
	[ -n "$args" ] || args=parse
	known=$(printf '%s\n' "$hdr" | sed -n 's|^[[:space:]]*//[[:space:]]*known-fail:[[:space:]]*||p' | head -n 1)

	has_err=
	has_out=
	[ -f "$base.err" ] && has_err=1
	{ [ -f "$base.expected" ] || [ -f "$base.out.hlo" ]; } && has_out=1
	if [ -z "$want" ]; then
		if [ -n "$has_err" ]; then want=2; else want=0; fi
	fi

	set -f
	# shellcheck disable=SC2086  # args are split on purpose
	timeout "$TIMEOUT" "$HLOLINT" $args "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set +f

	if [ -z "$has_err" ] && [ -z "$has_out" ]; then
		if [ -n "$UPDATE" ] && [ "$rc" -lt 124 ]; then
			if [ "$rc" -eq 0 ]; then
				cp "$tmp/out" "$base.expected"
				echo "[UPDATED] $name ($base.expected)"
			else
				cp "$tmp/err" "$base.err"
				echo "[UPDATED] $name ($base.err)"
			fi
			pass "$name"
		else
			fail "$name" "no $base.expected, .err or .out.hlo"
		fi
		continue
	fi

	if [ "$rc" -eq 124 ]; then
		fail "$name" "timed out after ${TIMEOUT}s"
		continue
	fi
	if [ "$rc" -gt 128 ] || grep -aqE 'Sanitizer|runtime error:' "$tmp/err"; then
		fail "$name" "crashed (exit $rc)"
		head -n 30 "$tmp/err"
		continue
	fi
	ok=1
	if [ "$rc" -ne "$want" ]; then
		echo "--- exit status $rc, expected $want; stderr:"
		head -n 20 "$tmp/err"
		ok=
	fi
	if [ -n "$has_err" ]; then
		compare "$name" "$base.err" "$tmp/err" || ok=
	elif [ -s "$tmp/err" ]; then
		# No .err: nothing may be said on stderr.
		echo "--- unexpected stderr:"
		head -n 10 "$tmp/err"
		ok=
	fi
	if [ -f "$base.expected" ]; then
		compare "$name" "$base.expected" "$tmp/out" || ok=
	fi
	if [ -f "$base.out.hlo" ]; then
		compare "$name" "$base.out.hlo" "$tmp/out" || ok=
	fi
	if [ -n "$known" ]; then
		if [ -n "$ok" ]; then
			fail "$name" "XPASS: marked known-fail ($known) but passes; remove the mark"
		else
			xfailed=$((xfailed + 1))
			echo "[XFAIL] $name: $known"
		fi
	elif [ -n "$ok" ]; then pass "$name"; else fail "$name"; fi
done <"$tmp/golden"

# Shell tests.
find "$TESTS_DIR" -type f -name 'test_*.sh' | sort >"$tmp/shell"
later=0
while IFS= read -r t; do
	[ -x "$t" ] || continue
	name=${t#"$TESTS_DIR"/}
	name=${name%.sh}
	selected "$name" "$@" || continue
	long=; head -n 10 "$t" | grep -q '^# suite: long' && long=1
	if { [ "$SUITE" = fast ] && [ -n "$long" ]; } || { [ "$SUITE" = long ] && [ -z "$long" ]; }; then
		later=$((later + 1))
		continue
	fi
	case $t in /*) cmd=$t ;; *) cmd=./$t ;; esac
	timeout "$SH_TIMEOUT" "$cmd" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	case $rc in
	0) pass "$name" ;;
	77)
		skipped=$((skipped + 1))
		reason=$(sed '/^[[:space:]]*$/d' "$tmp/out" | tail -n 1)
		echo "[SKIP] $name: ${reason:-no reason given}"
		;;
	124)
		fail "$name" "timed out after ${SH_TIMEOUT}s"
		tail -n 20 "$tmp/out" "$tmp/err"
		;;
	*)
		fail "$name" "exit $rc"
		tail -n 30 "$tmp/out"
		tail -n 30 "$tmp/err"
		;;
	esac
done <"$tmp/shell"

[ "$SUITE" = fast ] && [ "$later" -gt 0 ] && echo "$later long tests are left to make check-long"
[ "$skipped" -gt 0 ] && echo "$skipped skipped"
[ "$xfailed" -gt 0 ] && echo "$xfailed known to fail"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
