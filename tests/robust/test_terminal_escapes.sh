#!/bin/sh
# test_terminal_escapes.sh - no input byte reaches a terminal or a CI log
# raw (issue 45): a comment line holding ESC ] 0 ; ... BEL (retitles the
# window) and ESC [ 2 J (clears the screen), an op_name and a Python file
# name holding a newline then "::error file=...::" (a GitHub Actions
# workflow command), a C1 CSI and a bidi override.  Every text output
# (errors and their echoed line, check in text and github form, mem, oom,
# diff, the baseline file, the lines annotate adds) shows them escaped (\x1b, \u009b) and
# never starts a line with the injected command.
. tests/lib.sh
esc=$(printf '\033')
bel=$(printf '\007')
# The module: raw control bytes in a comment, escaped ones in strings
# (decoded into op_name and source_file).
printf 'HloModule m, num_partitions=1\nENTRY e {\n  // \033]0;pwned\007 \033[2J \302\233 \342\200\256 x\n' >"$tmp/m.hlo"
printf '  ROOT p = f32[4000000] parameter(0), metadata={op_name="a\\n::error file=x.py,line=1::injected\\x1b[2J" source_file="/x\\x1b]0;t\\x07\\n::error file=y::py.py" source_line=3}\n}\n' >>"$tmp/m.hlo"
sed 's/parameter(0)/frob(0)/' "$tmp/m.hlo" >"$tmp/bad.hlo"
printf 'E1207 12:00:00 \033[31mRESOURCE_EXHAUSTED: Ran out of memory in memory space hbm. Used 20.00G of 15.48G hbm. Exceeded hbm capacity by 4.52G.\033[0m\n\033]0;x\007::error file=z::log\n' >"$tmp/oom.log"

# clean NAME FILE: no raw ESC, BEL, C1 or bidi byte; no injected command line.
clean() {
	if grep -q "[$esc$bel]" "$2" || grep -q "$(printf '\302\233')" "$2" || grep -q "$(printf '\342\200\256')" "$2"; then
		fail "$1: a raw control character: $(grep -n "[$esc$bel]" "$2" | head -n 2 | cat -v)"
	fi
	if grep -q '^::error file=[xyz]' "$2"; then
		fail "$1: an input field starts a line: $(grep '^::error file=[xyz]' "$2" | head -n 1 | cat -v)"
	fi
}
run() {  # run NAME ARGS...: stdout and stderr both clean, no crash
	name=$1
	shift
	"$HLOLINT" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -le 2 ] || fail "$name: exit $rc"
	clean "$name (stdout)" "$tmp/out"
	clean "$name (stderr)" "$tmp/err"
}
run parse-error parse "$tmp/bad.hlo"
printf 'HloModule m\nENTRY e {\n  ROOT p = f32[] frob(), x=1 // \033]0;pwned\007 \302\233\n}\n' >"$tmp/bad2.hlo"
run parse-error-echo parse "$tmp/bad2.hlo"
grep -qF '// \x1b]0;pwned\x07 \u009b' "$tmp/err" || fail "parse-error-echo: the echoed line is not escaped: $(cat -v "$tmp/err")"
# The caret stays under the opcode after the escapes widened the line.
printf 'HloModule m\nENTRY e {\n  /* \033[2J */ ROOT p = f32[] frob()\n}\n' >"$tmp/bad3.hlo"
run caret parse "$tmp/bad3.hlo"
at=$(sed -n 2p "$tmp/err" | awk '{ print index($0, "frob") - 1 }')
[ "$(sed -n 2p "$tmp/err")" = '  /* \x1b[2J */ ROOT p = f32[] frob()' ] || fail "caret: $(sed -n 2p "$tmp/err" | cat -A)"
sed -n 3p "$tmp/err" | grep -q "^ \{$at\}^~~~\$" || fail "caret not under frob (column $at): $(sed -n 3p "$tmp/err")"
run check-text check --no-config --verbose --hbm 1K "$tmp/m.hlo"
grep -qF '(op_name "a\x0a::error file=x.py,line=1::injected\x1b[2J")' "$tmp/out" ||
	fail "check-text: op_name not escaped as \\x0a and \\x1b: $(grep op_name "$tmp/out" | cat -v)"
run check-github check --no-config --hbm 1K --format github "$tmp/m.hlo"
run check-concise check --no-config --hbm 1K --format concise "$tmp/m.hlo"
run mem mem --no-config "$tmp/m.hlo"
run mem-top mem --no-config --top 3 "$tmp/m.hlo"
run oom oom --no-config "$tmp/oom.log"
run oom-dump oom --no-config --dump "$tmp/m.hlo" "$tmp/oom.log"
sed 's/4000000/8000000/' "$tmp/m.hlo" >"$tmp/m2.hlo"
run diff diff --no-config "$tmp/m.hlo" "$tmp/m2.hlo"
run baseline check --no-config --hbm 1K --write-baseline "$tmp/base.txt" "$tmp/m.hlo"
clean baseline-file "$tmp/base.txt"
[ "$(grep -cv '^#' "$tmp/base.txt")" = 1 ] || fail "baseline: $(grep -cv '^#' "$tmp/base.txt") finding lines, want 1"
# annotate copies the module's own text as it is; the lines it adds are text output.
"$HLOLINT" annotate --no-config --hbm 1K "$tmp/m.hlo" >"$tmp/annotated.hlo" 2>"$tmp/err"
rc=$?; [ $rc -le 1 ] || fail "annotate: exit $rc"
clean "annotate (stderr)" "$tmp/err"
grep hlolint "$tmp/annotated.hlo" >"$tmp/added"
[ -s "$tmp/added" ] || fail "annotate: no line added"
clean annotate-lines "$tmp/added"
"$HLOLINT" parse "$tmp/annotated.hlo" >/dev/null 2>&1 || fail "annotate: its output does not parse"
exit $st
