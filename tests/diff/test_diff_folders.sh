#!/bin/sh
# test_diff_folders.sh - diff of two dump folders pairs their modules by
# name before loading any (lex_module_names) and holds at most -j pairs at
# a time (issue 45: 2 x 10,000 small files held 2.6 GB): 2 x 3,000 modules
# compare with bounded memory (where GNU time is there), pairing by name
# whatever the file order; a file holding two modules pairs each; a module
# only in the new folder is reported new; a broken old module nothing pairs
# with still fails the run (exit 2).
. tests/lib.sh
mkdir "$tmp/old" "$tmp/new"
awk -v d="$tmp" 'BEGIN { for (i = 0; i < 3000; i++) {
	m = sprintf("HloModule jit_f%d\nENTRY e {\n  p = f32[%d] parameter(0)\n  ROOT r = f32[%d] negate(p)\n}\n", i, 8, 8);
	printf "%s", m >(d "/old/module_" sprintf("%05d", i) ".jit_f" i ".after_optimizations.txt");
	close(d "/old/module_" sprintf("%05d", i) ".jit_f" i ".after_optimizations.txt");
	# the new compile numbers its modules the other way round
	printf "%s", m >(d "/new/module_" sprintf("%05d", 2999 - i) ".jit_f" i ".after_optimizations.txt");
	close(d "/new/module_" sprintf("%05d", 2999 - i) ".jit_f" i ".after_optimizations.txt") } }'
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f '%M' -o "$tmp/rss" "$HLOLINT" diff --no-config -j 2 "$tmp/old" "$tmp/new" >"$tmp/out" 2>"$tmp/err"
else
	"$HLOLINT" diff --no-config -j 2 "$tmp/old" "$tmp/new" >"$tmp/out" 2>"$tmp/err"
fi
rc=$?
[ $rc = 0 ] || fail "3,000 pairs: exit $rc: $(head -n 2 "$tmp/err")"
tail -n 1 "$tmp/out" | grep -q '^hlolint diff: 3000 modules compared, 0 buffer changes' ||
	fail "3,000 pairs: $(tail -n 1 "$tmp/out")"
# (a sanitizer build's shadow memory and quarantine are not the program's)
if [ -s "$tmp/rss" ] && ! grep -qa __asan_init "$HLOLINT"; then
	kb=$(tail -n 1 "$tmp/rss")
	[ "$kb" -lt 102400 ] || fail "3,000 pairs: $kb KB, want under 100 MB (at most -j pairs held)"
fi
# Two modules in one file, the second also alone in the new folder's other file.
cat tests/mem/sort_in_place.hlo >"$tmp/two.hlo"
sed 's/^HloModule [A-Za-z0-9_.]*/HloModule second_mod/' tests/mem/sort_in_place.hlo >>"$tmp/two.hlo"
"$HLOLINT" diff --no-config "$tmp/two.hlo" "$tmp/two.hlo" >"$tmp/out" 2>"$tmp/err" || fail "two modules: exit $?"
tail -n 1 "$tmp/out" | grep -q '2 modules compared' || fail "two modules: $(tail -n 1 "$tmp/out")"
cp "$tmp/old/module_00001.jit_f1.after_optimizations.txt" "$tmp/new/module_09999.jit_g.after_optimizations.txt"
sed -i 's/jit_f1$/jit_g/' "$tmp/new/module_09999.jit_g.after_optimizations.txt"
"$HLOLINT" diff --no-config "$tmp/old" "$tmp/new" >"$tmp/out" 2>"$tmp/err"
grep -q 'module jit_g is new' "$tmp/out" || fail "a new module: not reported"
# A broken old module that no new module pairs with: its error, exit 2.
printf 'HloModule jit_broken\nENTRY e {\n  ROOT p = f32[] frob()\n}\n' >"$tmp/old/module_99999.jit_broken.after_optimizations.txt"
"$HLOLINT" diff --no-config "$tmp/old" "$tmp/new" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] || fail "broken old module: exit $rc, want 2"
grep -q "jit_broken.after_optimizations.txt:3:18: error: unknown opcode 'frob'" "$tmp/err" ||
	fail "broken old module: $(head -n 1 "$tmp/err")"
exit $st
