#!/bin/sh
# test_timing.sh - HLO_TIMING=1 (src/ir/timing.c) adds the stages' times to
# stderr and changes nothing else: stdout and the exit status of fmt, mem,
# check and annotate are those of a run without it, serially and with the
# input in pieces.  The report names the pipeline's stages, each rule that
# ran, the CPU time of every thread over each stage, and the process's CPU
# time, in lines of at most 100 columns.
. tests/lib.sh
f=$tmp/m.hlo
awk 'BEGIN { print "HloModule m, is_scheduled=true"; print "";
	for (c = 0; c < 40; c++) {
		printf "%%fused.%d (p: f32[64,128]) -> f32[64,128] {\n", c
		print "  %p = f32[64,128]{1,0} parameter(0)"
		print "  ROOT %e = f32[64,128]{1,0} exponential(%p)"; print "}"; print "" }
	print "ENTRY %main (a: f32[64,128]) -> f32[64,128] {"
	print "  %a = f32[64,128]{1,0} parameter(0)"; prev = "a"
	for (c = 0; c < 40; c++) {
		printf "  %%f%d = f32[64,128]{1,0} fusion(%%%s), kind=kLoop, calls=%%fused.%d\n", c, prev, c
		prev = "f" c }
	printf "  ROOT %%r = f32[64,128]{1,0} copy(%%%s)\n}\n", prev }' >"$f"
for pieces in 999999999999 1; do
	for cmd in "fmt" "mem" "check --no-config --format json --target tpu-v5e" "annotate --no-config"; do
		# shellcheck disable=SC2086  # cmd is split on purpose
		HLO_PARSE_PIECES_MIN=$pieces "$HLOLINT" $cmd -j 2 "$f" >"$tmp/plain.out" 2>"$tmp/plain.err"
		want=$?
		# shellcheck disable=SC2086
		HLO_TIMING=1 HLO_PARSE_PIECES_MIN=$pieces "$HLOLINT" $cmd -j 2 "$f" >"$tmp/timed.out" 2>"$tmp/timed.err"
		rc=$?
		[ $want -le 1 ] || fail "$cmd (pieces from $pieces): exit $want without HLO_TIMING"
		[ $rc = $want ] || fail "$cmd (pieces from $pieces): exit $rc with HLO_TIMING, $want without"
		cmp -s "$tmp/plain.out" "$tmp/timed.out" || fail "$cmd (pieces from $pieces): stdout differs"
		grep -v '^hlolint: timing: ' "$tmp/timed.err" | cmp -s - "$tmp/plain.err" ||
			fail "$cmd (pieces from $pieces): stderr differs beyond the timing lines"
		# a stage: wall time, how many times it ran, all threads' CPU time
		for stage in parse resolve verify "output and exit"; do
			grep -q "^hlolint: timing: $stage  *[0-9][0-9]*\.[0-9] ms  *[1-9][0-9]*  *[0-9][0-9]*\.[0-9] ms cpu\$" \
				"$tmp/timed.err" || fail "$cmd (pieces from $pieces): no CPU time for '$stage'"
		done
		for stage in parse resolve verify "output and exit" "(cpu user)" "(cpu system)"; do
			grep -q "^hlolint: timing: $stage  *[0-9][0-9]*\.[0-9] ms" "$tmp/timed.err" ||
				fail "$cmd (pieces from $pieces): no '$stage' line in $(head -c 400 "$tmp/timed.err")"
		done
		awk 'length($0) > 100 { exit 1 }' "$tmp/timed.err" || fail "$cmd: a timing line over 100 columns"
		grep -q '^hlolint: timing: ' "$tmp/plain.err" && fail "$cmd: timing lines without HLO_TIMING"
	done
	# annotate, the last command, has the model's line and one per rule that ran.
	for stage in model host-transfer missed-donation offload-candidate; do
		grep -q "^hlolint: timing: $stage  *[0-9]" "$tmp/timed.err" ||
			fail "annotate (pieces from $pieces): no '$stage' line"
	done
done
exit $st
