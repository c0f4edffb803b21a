#!/bin/sh
# test_mem_stdin.sh - `mem -` reads standard input and reports it as
# <stdin>, same figures as the file; a missing file is exit 2 while the
# other files are still reported.
HLOLINT=${HLOLINT:-build/hlolint}
f=tests/mem/alias_views.hlo
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-mem.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
"$HLOLINT" mem --format json - <"$f" >"$tmp/stdin" || { echo "FAIL: mem - exited $?"; exit 1; }
"$HLOLINT" mem --format json "$f" >"$tmp/file" || { echo "FAIL: mem $f exited $?"; exit 1; }
grep -q '"path": "<stdin>"' "$tmp/stdin" || { echo "FAIL: stdin not reported as <stdin>"; exit 1; }
sed 's|"path": "<stdin>"|"path": "'"$f"'"|' "$tmp/stdin" | cmp -s - "$tmp/file" || {
	echo "FAIL: stdin and file reports differ"; diff "$tmp/stdin" "$tmp/file" | head; exit 1; }
"$HLOLINT" mem --format json "$tmp/missing.hlo" "$f" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || { echo "FAIL: missing file gave exit $rc, want 2"; exit 1; }
grep -q '"module": "alias_views"' "$tmp/out" || { echo "FAIL: the readable file was not reported"; exit 1; }
grep -q 'missing.hlo' "$tmp/err" || { echo "FAIL: no error for the missing file"; exit 1; }
echo "ok"
