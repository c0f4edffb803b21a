#!/bin/sh
# test_output_targets.sh - where `annotate -o PATH` and `--in-place` write
# (issue 8 items 5 and 6): through a symlink to its target (the link kept),
# straight into a FIFO, a character device and standard output by name
# (never renamed over), a file too large for `ulimit -f` (exit 2, EFBIG, no temporary
# left), and SIGTERM in the middle of a large write (no temporary left).
. tests/lib.sh
case $HLOLINT in /*) ;; *) HLOLINT=$(pwd)/$HLOLINT ;; esac
# run NAME WANT_EXIT ARGS...: hlolint, its status checked (a crash fails).
run() {
	name=$1 want=$2
	shift 2
	"$HLOLINT" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
	got=$?
	[ "$got" -eq "$want" ] || { fail "$name: exit $got (want $want): $(head -c 300 "$tmp/stderr")"; return 1; }
}
no_temps() {
	leftover=$(find "$tmp" -name '*.hlolint-*' | head -n 3)
	[ -z "$leftover" ] || fail "$1: temporary file left: $leftover"
}
args="annotate --no-config --select host-transfer"
# A module with one host callback: one host-transfer finding to annotate.
cp tests/annotate/data/host_print.hlo "$tmp/in.hlo"
# shellcheck disable=SC2086
run reference 1 $args "$tmp/in.hlo" && cp "$tmp/stdout" "$tmp/want.hlo"
grep -q 'hlolint: host-transfer' "$tmp/want.hlo" || fail "reference: no annotation"

# A symlink: the target gets the output, the link stays a link.
echo old >"$tmp/target.hlo"
mkdir "$tmp/sub"
ln -s ../target.hlo "$tmp/sub/link.hlo"
# shellcheck disable=SC2086
run symlink 1 $args -o "$tmp/sub/link.hlo" "$tmp/in.hlo"
[ -L "$tmp/sub/link.hlo" ] || fail "symlink: -o replaced the link with a regular file"
cmp -s "$tmp/target.hlo" "$tmp/want.hlo" || fail "symlink: the link's target does not hold the output"
# A chain of links, the last one dangling: the final target is created.
ln -s chain2.hlo "$tmp/chain1.hlo"
ln -s new.hlo "$tmp/chain2.hlo"
# shellcheck disable=SC2086
run dangling 1 $args -o "$tmp/chain1.hlo" "$tmp/in.hlo"
[ -L "$tmp/chain1.hlo" ] && [ -L "$tmp/chain2.hlo" ] || fail "dangling: a link was replaced"
cmp -s "$tmp/new.hlo" "$tmp/want.hlo" || fail "dangling: the final target does not hold the output"
# A symlink loop is an error, nothing written.
ln -s loop2 "$tmp/loop1" && ln -s loop1 "$tmp/loop2"
# shellcheck disable=SC2086
run loop 2 $args -o "$tmp/loop1" "$tmp/in.hlo"
grep -q "cannot write" "$tmp/stderr" || fail "loop: no message"
# --in-place through a symlink rewrites the target and keeps the link.
cp "$tmp/in.hlo" "$tmp/real.hlo"
ln -s real.hlo "$tmp/inplace.hlo"
# shellcheck disable=SC2086
run in-place-link 1 $args --in-place "$tmp/inplace.hlo"
[ -L "$tmp/inplace.hlo" ] || fail "--in-place replaced the symlink"
cmp -s "$tmp/real.hlo" "$tmp/want.hlo" || fail "--in-place through a link: target not rewritten"
no_temps symlinks

# A FIFO: written into, not renamed over.
mkfifo "$tmp/fifo"
timeout 20 cat "$tmp/fifo" >"$tmp/fifo.out" &
reader=$!
# shellcheck disable=SC2086
run fifo 1 $args -o "$tmp/fifo" "$tmp/in.hlo"
[ -p "$tmp/fifo" ] || { fail "fifo: -o replaced the FIFO"; kill "$reader" 2>/dev/null; }
wait "$reader"
cmp -s "$tmp/fifo.out" "$tmp/want.hlo" || fail "fifo: the reader did not get the output"

# Standard output by name (stdout a regular file here): /dev/fd/1 and a
# link of our own to /proc/self/fd/1 (what /dev/stdout is).  The real
# /dev/stdout and /dev/null are not used: a broken binary would replace them.
"$HLOLINT" $args -o /dev/fd/1 "$tmp/in.hlo" >"$tmp/devfd1" 2>"$tmp/stderr"
[ $? -eq 1 ] || fail "/dev/fd/1: exit $?: $(head -c 200 "$tmp/stderr")"
cmp -s "$tmp/devfd1" "$tmp/want.hlo" || fail "/dev/fd/1: output not in the stream"
ln -s /proc/self/fd/1 "$tmp/mystdout"
"$HLOLINT" $args -o "$tmp/mystdout" "$tmp/in.hlo" >"$tmp/linkstdout" 2>"$tmp/stderr"
[ $? -eq 1 ] || fail "link to /proc/self/fd/1: exit $?: $(head -c 200 "$tmp/stderr")"
[ -L "$tmp/mystdout" ] || fail "link to /proc/self/fd/1: replaced by a regular file"
cmp -s "$tmp/linkstdout" "$tmp/want.hlo" || fail "link to /proc/self/fd/1: output not in the stream"

# A character device of our own (mknod needs root), like /dev/null.
if mknod -m 666 "$tmp/null" c 1 3 2>/dev/null; then
	# shellcheck disable=SC2086
	run chardev 1 $args -o "$tmp/null" "$tmp/in.hlo"
	[ -c "$tmp/null" ] || fail "chardev: -o replaced the character device with a regular file"
else
	echo "note: not root: no character device to test with"
fi
no_temps devices

# ulimit -f: SIGXFSZ is ignored, write fails with EFBIG: exit 2, a message,
# no temporary file, no output file.
awk 'BEGIN { print "HloModule big"; print ""; print "ENTRY %e {";
	for (i = 0; i < 4000; i++) printf "  %%c%d = f32[16]{0} constant({1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16})\n", i;
	print "  ROOT %r = f32[16]{0} constant({0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0})"; print "}" }' >"$tmp/big.hlo"
(ulimit -f 64; exec "$HLOLINT" annotate --no-config -o "$tmp/big.out" "$tmp/big.hlo") >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
[ "$rc" -eq 2 ] || fail "ulimit -f: exit $rc (want 2; 153 = killed by SIGXFSZ)"
grep -q "File too large" "$tmp/stderr" || fail "ulimit -f: no EFBIG message: $(head -c 200 "$tmp/stderr")"
[ -e "$tmp/big.out" ] && fail "ulimit -f: a partial output file was left"
no_temps "ulimit -f"

# SIGTERM at varying points of a large annotate: whatever the moment, no
# temporary file survives, and the output is either absent or complete.
awk 'BEGIN { print "HloModule big"; print ""; print "ENTRY %e {";
	for (i = 0; i < 150000; i++) printf "  %%c%d = f32[16]{0} constant({1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16})\n", i;
	print "  ROOT %r = f32[16]{0} constant({0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0})"; print "}" }' >"$tmp/huge.hlo"
"$HLOLINT" annotate --no-config -o "$tmp/huge.want" "$tmp/huge.hlo" 2>/dev/null
for delay in 0.05 0.1 0.2 0.3 0.4 0.5 0.7 0.9; do
	rm -f "$tmp/huge.out"
	"$HLOLINT" annotate --no-config -o "$tmp/huge.out" "$tmp/huge.hlo" 2>/dev/null &
	pid=$!
	sleep "$delay"
	kill -TERM "$pid" 2>/dev/null
	wait "$pid"
	if [ -e "$tmp/huge.out" ] && ! cmp -s "$tmp/huge.out" "$tmp/huge.want"; then
		fail "SIGTERM after ${delay}s: a torn output file"
	fi
	no_temps "SIGTERM after ${delay}s"
done
exit $st
