#!/bin/sh
# test_out_of_memory.sh - running out of memory (an address-space limit
# set with ulimit -v) ends in exit 2 and one "hlolint: error: out of
# memory" line, as every other failure (issue 45: it was exit 3, outside
# the documented 0/1/2).  Skipped under a sanitizer, which reserves more
# address space than the limit before main.
. tests/lib.sh
awk 'BEGIN { print "HloModule m\nENTRY e {\n  p = f32[8,128]{1,0} parameter(0)";
	for (i = 0; i < 60000; i++) printf "  a%d = f32[8,128]{1,0} add(p, p), metadata={op_name=\"jit(f)/add_%d\"}\n", i, i;
	print "  ROOT r = f32[8,128]{1,0} add(p, p)\n}" }' >"$tmp/big.hlo"
for c in "check --no-config" "annotate --no-config"; do
	# shellcheck disable=SC2086
	(ulimit -v 40000 && exec "$HLOLINT" $c "$tmp/big.hlo") >/dev/null 2>"$tmp/err"
	rc=$?
	if grep -q 'Sanitizer' "$tmp/err"; then
		echo "skip: a sanitizer build cannot run under ulimit -v"
		exit 77
	fi
	[ $rc = 2 ] || fail "$c under ulimit -v: exit $rc, want 2"
	printf 'hlolint: error: out of memory\n' | cmp -s - "$tmp/err" ||
		fail "$c under ulimit -v: stderr is not one out-of-memory line: $(head -n 3 "$tmp/err")"
done
exit $st
