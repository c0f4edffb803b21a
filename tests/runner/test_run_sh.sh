#!/bin/sh
# test_run_sh.sh - self-test of tests/run.sh against a fake hlolint: every
# golden mode, header comments, gzip inputs, exit codes, timeouts, skips,
# pattern selection and UPDATE=1, on a scratch test tree.
set -u
root=$(pwd)
t=$(mktemp -d "${TMPDIR:-/tmp}/run-sh-test.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
fail() { echo "test_run_sh: $*"; exit 1; }

# Fake binary: "<cmd> [opts] FILE"; behaviour keyed on words in the input.
cat >"$t/fake" <<'FAKE'
#!/bin/sh
cmd=$1; shift
for f; do :; done
case $f in *.gz) text=$(gzip -dc "$f") ;; *) text=$(cat "$f") ;; esac
case $text in *SLEEP*) sleep 5 ;; esac
case $text in *CRASH*) kill -SEGV $$ ;; esac
case $text in *BAD*) echo "$f:1:1: error: bad input" >&2; exit 2 ;; esac
echo "$cmd $*"
FAKE
chmod +x "$t/fake"
mkdir -p "$t/tests/a" "$t/tests/a/data" "$t/tests/sh"
d=$t/tests/a
printf 'HloModule ok\n' >"$d/ok.hlo"
printf 'parse %s\n' "$d/ok.hlo" >"$d/ok.expected"
printf '// args: fmt --style=long\nHloModule x\n' >"$d/fmt.hlo"
printf 'fmt --style=long %s\n' "$d/fmt.hlo" >"$d/fmt.out.hlo"
printf 'BAD\n' >"$d/bad.hlo"
printf '%s:1:1: error: bad input\n' "$d/bad.hlo" >"$d/bad.err"
printf '// exit: 2\nBAD\n' >"$d/badexit.hlo"
printf 'wrong\n' >"$d/badexit.err"
printf 'HloModule gz\n' | gzip >"$d/gz.hlo.gz"
printf 'parse %s\n' "$d/gz.hlo.gz" >"$d/gz.expected"
printf 'SLEEP\n' >"$d/slow.hlo"
: >"$d/slow.expected"
printf 'CRASH\n' >"$d/crash.hlo"
: >"$d/crash.expected"
printf 'HloModule n\n' >"$d/noexp.hlo"
printf 'HloModule fixture\n' >"$d/data/fixture.hlo"
printf '#!/bin/sh\nexit 0\n' >"$t/tests/sh/test_ok.sh"
printf '#!/bin/sh\necho "needs a GPU"\nexit 77\n' >"$t/tests/sh/test_skip.sh"
printf '#!/bin/sh\necho boom\nexit 3\n' >"$t/tests/sh/test_bad.sh"
printf '#!/bin/sh\nexit 1\n' >"$t/tests/sh/test_notexec.sh"
chmod +x "$t/tests/sh/test_ok.sh" "$t/tests/sh/test_skip.sh" "$t/tests/sh/test_bad.sh"

HLOLINT=$t/fake TESTS_DIR=$t/tests TIMEOUT=1 ${RUNSH_SHELL:-sh} "$root/tests/run.sh" >"$t/log" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "exit $rc, expected 1"
for want in '[PASS] a/ok' '[PASS] a/fmt' '[PASS] a/bad' '[PASS] a/gz' '[FAIL] a/badexit' \
	'[FAIL] a/slow: timed out after 1s' '[FAIL] a/crash: crashed (exit 139)' \
	'[PASS] sh/test_ok' '[SKIP] sh/test_skip: needs a GPU' '[FAIL] sh/test_bad: exit 3' \
	'1 skipped'; do
	grep -qxF "$want" "$t/log" || { cat "$t/log"; fail "missing line: $want"; }
done
grep -q '^\[FAIL\] a/noexp: no .*noexp.expected, .err or .out.hlo$' "$t/log" || fail "noexp"
grep -q 'fixture\|test_notexec' "$t/log" && fail "fixtures or non-executable scripts ran"
[ "$(tail -n 1 "$t/log")" = "5 passed, 5 failed" ] || { cat "$t/log"; fail "closing line"; }

# Pattern selection, and UPDATE=1 fixing the stale expectation.
HLOLINT=$t/fake TESTS_DIR=$t/tests UPDATE=1 ${RUNSH_SHELL:-sh} "$root/tests/run.sh" badexit >"$t/log2" 2>&1 ||
	{ cat "$t/log2"; fail "UPDATE run failed"; }
grep -qF "[UPDATED] a/badexit" "$t/log2" || fail "no UPDATED line"
[ "$(tail -n 1 "$t/log2")" = "1 passed, 0 failed" ] || fail "selection: $(tail -n 1 "$t/log2")"
grep -qF 'error: bad input' "$d/badexit.err" || fail "UPDATE did not rewrite badexit.err"
HLOLINT=$t/fake TESTS_DIR=$t/tests ${RUNSH_SHELL:-sh} "$root/tests/run.sh" a/ok a/gz >"$t/log3" 2>&1 ||
	fail "selected run failed"
[ "$(tail -n 1 "$t/log3")" = "2 passed, 0 failed" ] || fail "two patterns"
exit 0
