#!/bin/sh
# code_shape.sh - the shape docs/ARCHITECTURE.md promises for the C
# sources, checked so that it stays true:
#  - every .c file under src/ and passes/ opens with "/* <file>.c - ";
#  - no .c file is over 1,250 lines;
#  - no function is over 120 lines unless the comment above it says
#    "Long:" and why;
#  - functions defined in src/<stage>/<file>.c begin with "<file>_" (the
#    rules in passes/ use their short prefixes; the cli's cmd_*.c files
#    share "cmd_"; a module split over files that share a <module>_int.h,
#    like print.c, print_value.c and print_sharding.c, shares "<module>_";
#    arena.c's xmalloc family and intern() are the documented exceptions).
#  - the stages include only headers of their own or earlier stages, in
#    the order ir, front, model, lint (and passes/), rewrite, cli: data
#    flows one way (docs/ARCHITECTURE.md).
# It reads the sources only (so it is a stage of `make check`, not a
# run.sh test, which must exercise the binary).
. tests/lib.sh
n=0
for f in src/*/*.c passes/*.c; do
	n=$((n + 1))
	b=$(basename "$f")
	head -n 1 "$f" | grep -q "^/\* $b - " || fail "$f: does not open with '/* $b - ...'"
	lines=$(wc -l <"$f")
	[ "$lines" -le 1250 ] || fail "$f: $lines lines (over 1,250): split it by concept"
done
[ "$n" -ge 40 ] || fail "only $n C files found (run from the project root)"
# Functions: a definition starts at column 0 with a name and '(' and its
# body opens with '{' at column 0 and closes with '}' at column 0.
awk '
/^\/\*/ { comment = "" }
/^\/\*|^ \*/ { comment = comment $0 }
/^[A-Za-z_].*\(/ && !/;[ \t]*$/ { cand = $0; candline = FNR; why = comment }
/^\{/ { if (cand != "") { start = FNR; name = cand; reason = why } }
/^\}/ {
	if (start && FNR - start > 120 && reason !~ /Long:/)
		printf "FAIL: %s:%d: function of %d lines (over 120, no \"Long:\" reason): %s\n",
			FILENAME, candline, FNR - start, name
	start = 0; cand = ""
}
' src/*/*.c passes/*.c >"$tmp/long"
if [ -s "$tmp/long" ]; then
	cat "$tmp/long"
	st=1
fi
for f in src/*/*.c; do
	b=$(basename "$f" .c)
	m=${b%%_*}
	case $b in
	cmd_*) p=cmd ;;
	*_*) if [ -f "$(dirname "$f")/${m}_int.h" ]; then p=$m; else p=$b; fi ;;
	*) p=$b ;;
	esac
	sed -n 's/^\(static \)\{0,1\}[a-z_ ]*[ *]\([a-z_][a-z0-9_]*\)(.*/\2/p' "$f" | sort -u |
	while read -r fn; do
		case $fn in
		"$p"|"$p"_*|main) ;;
		xmalloc|xcalloc|xcalloc_touched|xrealloc|xreallocarray|xstrdup|xmalloc_huge|xfree_huge|check_fail) [ "$b" = arena ] || echo "$f: $fn" ;;
		intern) [ "$b" = intern ] || echo "$f: $fn" ;;
		hlo_yy*) ;;  # the generated scanner's and parser's entry points (declarations)
		*) echo "$f: $fn" ;;
		esac
	done
done >"$tmp/prefix"
if [ -s "$tmp/prefix" ]; then
	sed 's/^/FAIL: function without its file prefix: /' "$tmp/prefix"
	st=1
fi
stage_rank() {
	case $1 in ir) echo 0 ;; front) echo 1 ;; model) echo 2 ;; lint|passes) echo 3 ;; rewrite) echo 4 ;;
	cli) echo 5 ;; *) echo 9 ;; esac
}
for f in src/*/*.[ch] passes/*.c; do
	d=$(basename "$(dirname "$f")")
	rf=$(stage_rank "$d")
	for h in $(sed -n 's/^#include "\([a-z_]*\.h\)"/\1/p' "$f"); do
		hf=$(ls src/*/"$h" passes/"$h" 2>/dev/null | head -n 1)
		[ -n "$hf" ] || continue
		hd=$(basename "$(dirname "$hf")")
		[ "$(stage_rank "$hd")" -le "$rf" ] || fail "$f ($d) includes $h of a later stage ($hd)"
	done
done
[ "$st" = 0 ] && echo "code_shape: $n C files: headers, sizes, function lengths, prefixes and stage order ok"
exit $st
