#!/bin/sh
# test_annotate_safety.sh - what `hlolint annotate` may write, and where:
# FILE is never modified without --in-place (read-only input, -o naming the
# input under another spelling), a failing parse writes nothing (no output
# file, no temporary left), --in-place rewrites through a rename keeping the
# mode and leaves a file without findings untouched, and the --diff output
# applied with patch(1) (when installed) gives the annotated module.
. tests/lib.sh
case $HLOLINT in /*) ;; *) HLOLINT=$(pwd)/$HLOLINT ;; esac
# Read-only files are made below: give write access back before removing.
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
args="annotate --no-config --select host-transfer"

# A module with one host callback: one host-transfer finding to annotate.
cp tests/annotate/data/host_print.hlo "$tmp/in.hlo"
cp "$tmp/in.hlo" "$tmp/orig.hlo"
# shellcheck disable=SC2086
"$HLOLINT" $args "$tmp/in.hlo" >"$tmp/stdout.hlo" 2>"$tmp/err"
[ $? -eq 1 ] || fail "stdout run: exit $? (want 1)"
grep -q '^  // hlolint: host-transfer: ' "$tmp/stdout.hlo" || fail "stdout run: no annotation"
cmp -s "$tmp/in.hlo" "$tmp/orig.hlo" || fail "stdout run modified the input"

# Read-only input: -o works and the input is untouched; --in-place refuses.
chmod a-w "$tmp/in.hlo"
# shellcheck disable=SC2086
"$HLOLINT" $args -o "$tmp/out.hlo" "$tmp/in.hlo" 2>"$tmp/err"
[ $? -eq 1 ] || fail "read-only input with -o: exit (want 1)"
cmp -s "$tmp/out.hlo" "$tmp/stdout.hlo" || fail "-o output differs from stdout output"
# shellcheck disable=SC2086
"$HLOLINT" $args --in-place "$tmp/in.hlo" >"$tmp/o" 2>"$tmp/err"
[ $? -eq 2 ] || fail "--in-place on a read-only file: exit (want 2)"
grep -q "read-only" "$tmp/err" || fail "--in-place on a read-only file: no message"
cmp -s "$tmp/in.hlo" "$tmp/orig.hlo" || fail "--in-place modified a read-only file"
[ -s "$tmp/o" ] && fail "--in-place on a read-only file wrote to stdout"
chmod u+w "$tmp/in.hlo"

# -o naming the input, under another spelling too, without --in-place.
for o in "$tmp/in.hlo" "$tmp/./in.hlo" "$tmp/../$(basename "$tmp")/in.hlo"; do
	# shellcheck disable=SC2086
	"$HLOLINT" $args -o "$o" "$tmp/in.hlo" >"$tmp/o" 2>"$tmp/err"
	[ $? -eq 2 ] || fail "-o $o (the input): exit (want 2)"
	cmp -s "$tmp/in.hlo" "$tmp/orig.hlo" || fail "-o $o modified the input"
done
ln -s in.hlo "$tmp/link.hlo"
# shellcheck disable=SC2086
"$HLOLINT" $args -o "$tmp/link.hlo" "$tmp/in.hlo" >"$tmp/o" 2>"$tmp/err"
[ $? -eq 2 ] || fail "-o through a symlink to the input: exit (want 2)"
cmp -s "$tmp/in.hlo" "$tmp/orig.hlo" || fail "-o through a symlink modified the input"

# A failing parse writes nothing: no output file, no temporary, no stdout.
mkdir "$tmp/d"
printf 'HloModule bad\n\nENTRY %%e (x: f32[4]) -> f32[4] {\n  ROOT %%y = f32[4]{0} negate(%%nope)\n}\n' >"$tmp/d/bad.hlo"
# shellcheck disable=SC2086
"$HLOLINT" $args -o "$tmp/d/out.hlo" "$tmp/d/bad.hlo" >"$tmp/o" 2>"$tmp/err"
[ $? -eq 2 ] || fail "failing parse: exit (want 2)"
[ -e "$tmp/d/out.hlo" ] && fail "failing parse created the output file"
[ "$(ls -A "$tmp/d")" = "bad.hlo" ] || fail "failing parse left files: $(ls -A "$tmp/d")"
[ -s "$tmp/o" ] && fail "failing parse wrote to stdout"
cp "$tmp/d/bad.hlo" "$tmp/d/bad.orig"
# shellcheck disable=SC2086
"$HLOLINT" $args --in-place "$tmp/d/bad.hlo" >"$tmp/o" 2>"$tmp/err"
[ $? -eq 2 ] || fail "failing parse --in-place: exit (want 2)"
cmp -s "$tmp/d/bad.hlo" "$tmp/d/bad.orig" || fail "failing parse --in-place modified the file"
# An existing -o file is left alone when the run fails.
echo keep >"$tmp/d/keep.hlo"
# shellcheck disable=SC2086
"$HLOLINT" $args -o "$tmp/d/keep.hlo" "$tmp/d/bad.hlo" >"$tmp/o" 2>&1
[ "$(cat "$tmp/d/keep.hlo")" = keep ] || fail "failing parse overwrote an existing -o file"
# An output directory that does not exist: exit 2, nothing written.
# shellcheck disable=SC2086
"$HLOLINT" $args -o "$tmp/nodir/out.hlo" "$tmp/in.hlo" >"$tmp/o" 2>"$tmp/err"
[ $? -eq 2 ] || fail "-o into a missing directory: exit (want 2)"
# Usage errors.
# shellcheck disable=SC2086
"$HLOLINT" $args --in-place - <"$tmp/in.hlo" >"$tmp/o" 2>&1
[ $? -eq 2 ] || fail "--in-place on stdin: exit (want 2)"
# shellcheck disable=SC2086
"$HLOLINT" $args --in-place -o "$tmp/other.hlo" "$tmp/in.hlo" >"$tmp/o" 2>&1
[ $? -eq 2 ] || fail "--in-place with -o another file: exit (want 2)"
[ -e "$tmp/other.hlo" ] && fail "--in-place with -o another file wrote it"
gzip -c "$tmp/in.hlo" >"$tmp/in.hlo.gz"
# shellcheck disable=SC2086
"$HLOLINT" $args --in-place "$tmp/in.hlo.gz" >"$tmp/o" 2>&1
[ $? -eq 2 ] || fail "--in-place on a gzip file: exit (want 2)"
# shellcheck disable=SC2086
"$HLOLINT" $args -o "$tmp/fromgz.hlo" "$tmp/in.hlo.gz" 2>"$tmp/err"
cmp -s "$tmp/fromgz.hlo" "$tmp/stdout.hlo" || fail "gzip input with -o: output differs"

# --in-place: rewritten through a rename (new inode), mode kept, same text
# as stdout; a second run finds the annotations unchanged... and a file
# without findings is not touched at all.
cp "$tmp/orig.hlo" "$tmp/ip.hlo"
chmod 640 "$tmp/ip.hlo"
ino1=$(ls -i "$tmp/ip.hlo" | awk '{print $1}')
# shellcheck disable=SC2086
"$HLOLINT" $args --in-place "$tmp/ip.hlo" >"$tmp/o" 2>"$tmp/err"
[ $? -eq 1 ] || fail "--in-place: exit (want 1)"
[ -s "$tmp/o" ] && fail "--in-place wrote to stdout"
cmp -s "$tmp/ip.hlo" "$tmp/stdout.hlo" || fail "--in-place result differs from stdout output"
ino2=$(ls -i "$tmp/ip.hlo" | awk '{print $1}')
[ "$ino1" != "$ino2" ] || fail "--in-place did not go through a new file"
[ "$(ls -l "$tmp/ip.hlo" | cut -c1-10)" = "-rw-r-----" ] || fail "--in-place lost the mode: $(ls -l "$tmp/ip.hlo")"
ls -A "$tmp" | grep -q hlolint- && fail "--in-place left a temporary file"
printf 'HloModule clean\n\nENTRY %%e (x: f32[4]) -> f32[4] {\n  ROOT %%x = f32[4]{0} parameter(0)\n}\n' >"$tmp/clean.hlo"
touch -t 200001010000 "$tmp/clean.hlo"
# shellcheck disable=SC2086
"$HLOLINT" $args --in-place "$tmp/clean.hlo" >"$tmp/o" 2>"$tmp/err"
[ $? -eq 0 ] || fail "--in-place without findings: exit (want 0)"
[ -n "$(find "$tmp/clean.hlo" -newer "$tmp/orig.hlo")" ] && fail "--in-place rewrote a file without findings"

# --diff: applied with patch it gives the annotated module; with -o the
# module is written too.
# shellcheck disable=SC2086
(cd "$tmp" && "$HLOLINT" $args --diff -o diffout.hlo orig.hlo >d.diff 2>err)
[ $? -eq 1 ] || fail "--diff: exit (want 1)"
head -n 2 "$tmp/d.diff" | grep -q '^--- orig.hlo$' || fail "--diff: bad header: $(head -n 1 "$tmp/d.diff")"
cmp -s "$tmp/diffout.hlo" "$tmp/stdout.hlo" || fail "--diff -o: module differs"
if command -v patch >/dev/null 2>&1; then
	cp "$tmp/orig.hlo" "$tmp/p.hlo"
	patch -s "$tmp/p.hlo" <"$tmp/d.diff" || fail "--diff does not apply with patch"
	cmp -s "$tmp/p.hlo" "$tmp/stdout.hlo" || fail "--diff applied with patch differs from the module"
fi
exit $st
