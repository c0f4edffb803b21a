#!/bin/sh
# test_dev_full.sh - every command whose standard output cannot be written
# (/dev/full) exits 2 with one "hlolint: error:" line (issue 45: rules and
# report exited 2 without a word, --help exited 0).
. tests/lib.sh
[ -w /dev/full ] || { echo "skip: no /dev/full here"; exit 0; }
m=tests/mem/sort_in_place.hlo
log=tests/oom/real/logs/$(ls tests/oom/real/logs | head -n 1)
for c in "--help" "--version" "rules" "check --help" "report $m" "check --no-config $m" "fmt $m" \
	"mem --no-config $m" "annotate --no-config $m" "diff --no-config $m $m" "oom --no-config $log"; do
	# shellcheck disable=SC2086
	"$HLOLINT" $c >/dev/full 2>"$tmp/err"
	rc=$?
	[ $rc = 2 ] || fail "$c > /dev/full: exit $rc, want 2"
	n=$(grep -c '^hlolint: error: ' "$tmp/err")
	[ "$n" = 1 ] || fail "$c > /dev/full: $n 'hlolint: error:' lines, want 1: $(head -n 3 "$tmp/err")"
done
exit $st
