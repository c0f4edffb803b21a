#!/bin/sh
# test_output_safety.sh - no command overwrites its own input or a
# read-only file (issue 45): report -o and check --write-baseline naming an
# input (by its name, a symlink or a hard link) are refused before any
# work, exit 2, the input unchanged; a read-only -o, --write-baseline or
# --in-place target is refused unless --force; a temporary file a killed
# run left (.NAME.hlolint-PID-XXXXXX, PID gone) is removed by the next run
# that writes NAME, with a note, and one of a live process is kept.
. tests/lib.sh
cp tests/mem/sort_in_place.hlo "$tmp/x.hlo"
cp "$tmp/x.hlo" "$tmp/orig.hlo"
ln -s x.hlo "$tmp/link.hlo"
ln "$tmp/x.hlo" "$tmp/hard.hlo"
# refused NAME WANT-MESSAGE ARGS...: exit 2, the message, x.hlo unchanged
refused() {
	name=$1 want=$2
	shift 2
	"$HLOLINT" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = 2 ] || fail "$name: exit $rc, want 2"
	grep -qF "hlolint: error: $want" "$tmp/err" || fail "$name: $(head -n 2 "$tmp/err")"
	cmp -s "$tmp/x.hlo" "$tmp/orig.hlo" || fail "$name: the input changed"
	cp "$tmp/orig.hlo" "$tmp/x.hlo"
}
refused report-self "'$tmp/x.hlo' is an input of this run" report --no-config "$tmp/x.hlo" -o "$tmp/x.hlo"
refused report-link "'$tmp/hard.hlo' is an input of this run" report --no-config "$tmp/link.hlo" -o "$tmp/hard.hlo"
refused baseline-self "'$tmp/x.hlo' is an input of this run" check --no-config --write-baseline "$tmp/x.hlo" "$tmp/x.hlo"
refused baseline-link "'$tmp/link.hlo' is an input of this run" \
	check --no-config --write-baseline "$tmp/link.hlo" tests/mem/sort_in_place.hlo "$tmp/hard.hlo"
[ ! -s "$tmp/out" ] || fail "baseline-link: output before the refusal: $(head -n 1 "$tmp/out")"
refused annotate-self "-o '$tmp/hard.hlo' is the input file" annotate --no-config "$tmp/x.hlo" -o "$tmp/hard.hlo"
# A dump folder's module, named as --write-baseline: refused when written.
mkdir "$tmp/dump"
cp tests/mem/sort_in_place.hlo "$tmp/dump/module_0001.jit_f.after_optimizations.txt"
cp "$tmp/dump/module_0001.jit_f.after_optimizations.txt" "$tmp/dump.orig"
"$HLOLINT" check --no-config --write-baseline "$tmp/dump/module_0001.jit_f.after_optimizations.txt" "$tmp/dump" \
	>/dev/null 2>"$tmp/err"
[ $? = 2 ] || fail "dump-folder baseline: exit $?"
cmp -s "$tmp/dump/module_0001.jit_f.after_optimizations.txt" "$tmp/dump.orig" || fail "dump-folder baseline: the module changed"

# Read-only targets.
echo old >"$tmp/ro.html"
chmod 444 "$tmp/ro.html"
cp "$tmp/ro.html" "$tmp/ro.base"
chmod 444 "$tmp/ro.base"
cp "$tmp/x.hlo" "$tmp/ro.hlo"
chmod 444 "$tmp/ro.hlo"
for c in "report --no-config $tmp/x.hlo -o $tmp/ro.html" "annotate --no-config $tmp/x.hlo -o $tmp/ro.html" \
	"check --no-config --write-baseline $tmp/ro.base $tmp/x.hlo" "annotate --no-config --hbm 1K --in-place $tmp/ro.hlo"; do
	target=$(echo "$c" | awk '{ for (i = 1; i <= NF; i++) if ($i == "-o" || $i == "--write-baseline") { print $(i + 1); exit } } END { }')
	[ -n "$target" ] || target=$tmp/ro.hlo
	cp "$target" "$tmp/before"
	# shellcheck disable=SC2086
	"$HLOLINT" $c >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc = 2 ] || fail "$c: exit $rc, want 2"
	grep -qF "hlolint: error: '$target' is read-only; not replacing it (--force does)" "$tmp/err" ||
		fail "$c: $(head -n 1 "$tmp/err")"
	cmp -s "$target" "$tmp/before" || fail "$c: the read-only file changed"
	# shellcheck disable=SC2086
	"$HLOLINT" $c --force >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -le 1 ] || fail "$c --force: exit $rc: $(head -n 1 "$tmp/err")"
	cmp -s "$target" "$tmp/before" && fail "$c --force: not replaced"
	# (root may write any file: the mode bits say read-only)
	[ "$(stat -c %a "$target")" = 444 ] || fail "$c --force: the mode changed to $(stat -c %a "$target")"
done

# A stale temporary file of a process that is gone, and one of a live one.
sh -c 'exit 0' &
dead=$!
wait $dead
stale="$tmp/.page.html.hlolint-$dead-AbC123"
live="$tmp/.page.html.hlolint-$$-XyZ789"
: >"$stale"
: >"$live"
"$HLOLINT" report --no-config "$tmp/x.hlo" -o "$tmp/page.html" >/dev/null 2>"$tmp/err" || fail "report with a stale temp: exit $?"
[ ! -e "$stale" ] || fail "the stale temporary file is still there"
grep -qF "hlolint: note: removed '$stale', left by an interrupted run (process $dead)" "$tmp/err" ||
	fail "no note on the stale file: $(head -n 2 "$tmp/err")"
[ -e "$live" ] || fail "a live process's temporary file was removed"
exit $st
