#!/bin/sh
# test_baseline.sh - --write-baseline then --baseline: the written file
# lists every unsuppressed finding; a run against it fails on nothing and
# marks everything as baseline; a new finding in another file still fails;
# a baseline with one entry covers one of two identical findings.
LC_ALL=C
export LC_ALL
HLOLINT=${HLOLINT:-build/hlolint}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-baseline.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
f=tests/check/format_text.hlo

"$HLOLINT" check --no-config --write-baseline "$tmp/b.txt" "$f" >"$tmp/out" 2>&1
[ $? -eq 0 ] || fail "--write-baseline should exit 0"
[ "$(grep -vc '^#' "$tmp/b.txt")" -eq 3 ] || fail "baseline should hold 3 findings"
# It says what it wrote, and nothing else (issue 46): no findings, no summary.
[ "$(cat "$tmp/out")" = "hlolint: wrote 3 findings of 1 module to $tmp/b.txt" ] ||
	fail "--write-baseline printed: $(head -c 300 "$tmp/out")"
"$HLOLINT" check --no-config --format json --write-baseline "$tmp/j.txt" "$f" >"$tmp/out" 2>&1
[ "$(cat "$tmp/out")" = "hlolint: wrote 3 findings of 1 module to $tmp/j.txt" ] ||
	fail "--write-baseline --format json printed: $(head -c 300 "$tmp/out")"

"$HLOLINT" check --no-config --baseline "$tmp/b.txt" "$f" >"$tmp/out"
[ $? -eq 0 ] || fail "all findings in the baseline should exit 0"
grep -Eq '; 3 in baseline(;|$)' "$tmp/out" || fail "summary should count 3 in baseline: $(tail -n 1 "$tmp/out")"

"$HLOLINT" check --no-config --baseline "$tmp/b.txt" "$f" tests/rules/host-transfer/fires_debug_print.hlo >"$tmp/out"
[ $? -eq 1 ] || fail "a new finding should fail"
grep -q '^tests/rules/host-transfer/fires_debug_print.hlo:10:4: warning' "$tmp/out" || fail "new finding not shown"

# Two identical prints: one baseline line covers one of them.
sed -n '/^HloModule/,$p' tests/check/fail_on_error.hlo >"$tmp/one.hlo"
"$HLOLINT" check --no-config --write-baseline "$tmp/one.txt" "$tmp/one.hlo" >/dev/null
"$HLOLINT" check --no-config --baseline "$tmp/one.txt" "$tmp/one.hlo" "$tmp/one.hlo" >"$tmp/out"
[ $? -eq 1 ] || fail "the second identical finding is not in the baseline"
grep -Eq '1 warning, 0 notes in 2 modules; 1 in baseline(;|$)' "$tmp/out" || fail "duplicate counting: $(tail -n 1 "$tmp/out")"

# An unreadable baseline is an error (2), not an empty baseline.
"$HLOLINT" check --no-config --baseline "$tmp/missing.txt" "$f" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "missing baseline should exit 2"
# An unwritable one too.
"$HLOLINT" check --no-config --write-baseline "$tmp/no/such/dir/b.txt" "$f" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "unwritable baseline should exit 2"
grep -q 'cannot write baseline' "$tmp/err" || fail "unwritable baseline message"
exit 0
