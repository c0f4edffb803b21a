#!/bin/sh
# test_jobs_cap.sh - -j is capped (issue 45: -j 100000 on a 200 MB module
# took 110 s and 8.7 GB before "out of memory"): at most 64 threads
# (THREADS_MAX, README "Limits"), and one input is cut into no more pieces
# than it has 8 MB for (half of the 16 MB from which inputs are split), so
# -j 100000 and -j 1000000000 on a 20 MB module parse in 2 pieces, with the
# same output as -j 1; HLOLINT_THREADS above 64 is an error that says so.
. tests/lib.sh
awk 'BEGIN { print "HloModule m\n";
	for (c = 0; c < 1100; c++) {
		printf "%%c%d (p: f32[8,128]) -> f32[8,128] {\n  %%p = f32[8,128]{1,0} parameter(0)\n", c;
		for (i = 0; i < 240; i++) printf "  %%a%d = f32[8,128]{1,0} add(%%p, %%p), metadata={op_name=\"jit(f)/add\"}\n", i;
		print "  ROOT %r = f32[8,128]{1,0} negate(%p)\n}\n" }
	print "ENTRY %e (p: f32[8,128]) -> f32[8,128] {\n  %p = f32[8,128]{1,0} parameter(0)\n  ROOT %r = f32[8,128]{1,0} call(%p), to_apply=%c0\n}" }' >"$tmp/big.hlo"
size=$(wc -c <"$tmp/big.hlo")
[ "$size" -gt 16000000 ] && [ "$size" -lt 24000000 ] || fail "the module is $size bytes, want 16-24 MB"
"$HLOLINT" fmt -j 1 "$tmp/big.hlo" >"$tmp/serial.out" 2>&1 || fail "fmt -j 1: exit $?"
for j in 100000 1000000000; do
	HLO_PARSE_PIECES_TRACE=1 "$HLOLINT" parse -j $j "$tmp/big.hlo" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = 0 ] || fail "parse -j $j: exit $rc: $(head -n 2 "$tmp/err")"
	grep -q ': 2 pieces$' "$tmp/err" || fail "parse -j $j: $(head -n 1 "$tmp/err"), want 2 pieces"
	"$HLOLINT" fmt -j $j "$tmp/big.hlo" >"$tmp/par.out" 2>&1
	cmp -s "$tmp/serial.out" "$tmp/par.out" || fail "fmt -j $j prints other bytes than -j 1"
	"$HLOLINT" check --no-config -j $j "$tmp/big.hlo" tests/mem/sort_in_place.hlo >/dev/null 2>"$tmp/err"
	[ $? -le 1 ] || fail "check -j $j on two files: $(head -n 1 "$tmp/err")"
done
HLOLINT_THREADS=65 "$HLOLINT" parse "$tmp/big.hlo" >/dev/null 2>"$tmp/err"
[ $? = 2 ] || fail "HLOLINT_THREADS=65: not an error"
grep -q "HLOLINT_THREADS must be a number of threads from 1 to 64" "$tmp/err" || fail "HLOLINT_THREADS=65: $(cat "$tmp/err")"
exit $st
