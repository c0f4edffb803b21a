#!/bin/sh
# test_options.sh - every command reads its command line one way (args.c,
# issue 46): --opt=value and --opt value, -oFILE and -o FILE, -j4,
# combined short options, unambiguous prefixes, "--" before a file that
# looks like an option, files in the order given; an unknown, ambiguous or
# valueless option is one error line naming it (exit 2, nothing on
# stdout), never taking the next argument as its value; a mistyped
# command gets "did you mean"; mem reads .hlolint.toml like the others.
. tests/lib.sh
case $HLOLINT in /*) ;; *) HLOLINT=$PWD/$HLOLINT ;; esac
m=tests/check/format_text.hlo

# same A -- B: the two command lines print the same and exit the same.
same() {
	a=""
	while [ "$1" != "--" ]; do a="$a $1"; shift; done
	shift
	# shellcheck disable=SC2086  # the command lines are split on purpose
	"$HLOLINT" $a >"$tmp/a.out" 2>"$tmp/a.err"
	ra=$?
	"$HLOLINT" "$@" >"$tmp/b.out" 2>"$tmp/b.err"
	rb=$?
	[ $ra = $rb ] && [ $ra -le 1 ] && cmp -s "$tmp/a.out" "$tmp/b.out" && cmp -s "$tmp/a.err" "$tmp/b.err" ||
		fail "'$a' and '$*' differ (exit $ra, $rb): $(head -c 300 "$tmp/b.err")"
}
same check --no-config --fail-on=error --target=tpu-v5e $m -- check --no-config --fail-on error --target tpu-v5e $m
same check --no-config --fail=error $m -- check --no-config --fail-on error $m
same check --no-config -j2 $m -- check --no-config --jobs 2 $m
same check --no-config --host-transfer-loop-error-bytes=16M $m -- \
	check --no-config --host-transfer-loop-error-bytes 16M $m
same check $m --no-config --format json -- check --no-config --format json $m
same mem --no-config --top=3 $m -- mem --no-config --top 3 $m

# -oFILE and -o FILE; -h inside a group of short options.
"$HLOLINT" annotate --no-config "-o$tmp/a.hlo" $m
"$HLOLINT" annotate --no-config -o "$tmp/b.hlo" $m
cmp -s "$tmp/a.hlo" "$tmp/b.hlo" && [ -s "$tmp/a.hlo" ] || fail "-oFILE and -o FILE wrote different modules"
"$HLOLINT" annotate -hj2 >"$tmp/h.out" 2>&1 && grep -q '^usage: hlolint annotate' "$tmp/h.out" ||
	fail "-hj2: not annotate's help: $(head -c 200 "$tmp/h.out")"

# "--" ends the options: a file named like one.
cp tests/check/format_text.hlo "$tmp/-x.hlo"
(cd "$tmp" && "$HLOLINT" parse -- -x.hlo) || fail "parse -- -x.hlo: exit $?"

# Files in the order given, options between them.
"$HLOLINT" parse tests/verify/*.hlo >/dev/null 2>&1
"$HLOLINT" check --no-config --format json $m --select host-transfer tests/check/format_json.hlo >"$tmp/o.json"
[ "$(grep -c '"path":' "$tmp/o.json")" -ge 2 ] || fail "two files around an option: not both checked"

# One error line naming the option; exit 2; nothing on stdout.
bad() {  # bad PATTERN ARGS...
	want=$1
	shift
	"$HLOLINT" "$@" >"$tmp/bad.out" 2>"$tmp/bad.err"
	rc=$?
	[ $rc = 2 ] && [ ! -s "$tmp/bad.out" ] && [ "$(wc -l <"$tmp/bad.err")" = 1 ] &&
		grep -q "^hlolint: error: $want" "$tmp/bad.err" ||
		fail "$*: exit $rc, '$(cat "$tmp/bad.err")', want '$want'"
}
bad "unknown option '--bogus' for check" check --bogus $m
bad "unknown option '--bogus' for mem" mem --bogus=1 $m
bad "unknown option '-x' for parse" parse -x $m
bad "ambiguous option '--s' for check: --select, --source-root" check --s x $m
bad "option '--select' needs a value" check $m --select
bad "option '--select' needs a value" check $m --sel
bad "option '--exit-zero' takes no value" check --exit-zero=1 $m
bad "option '--apply' is for annotate, not check" check --apply $m
bad "option '--max-errors' expects a number, got 'x'" parse --max-errors x $m
bad "check needs FILE..." check
bad "diff takes OLD NEW, got 'c' too" diff a b c
bad "rules takes no arguments, got 'x'" rules x
bad "unknown command 'chek'; did you mean 'check'?" chek $m
bad "unknown command 'mme'; did you mean 'mem'?" mme $m

# mem reads .hlolint.toml like check: its target applies, the command line wins.
mkdir -p "$tmp/proj/.git"
cp $m "$tmp/proj/m.hlo"
printf 'target = "tpu-v5e"\n' >"$tmp/proj/.hlolint.toml"
(cd "$tmp/proj" && "$HLOLINT" mem m.hlo) >"$tmp/mem.out" 2>&1
grep -q 'tpu-v5e' "$tmp/mem.out" || fail "mem did not read .hlolint.toml: $(head -c 300 "$tmp/mem.out")"
(cd "$tmp/proj" && "$HLOLINT" mem --target h100 m.hlo) >"$tmp/mem.out" 2>&1
grep -q 'h100' "$tmp/mem.out" && ! grep -q 'tpu-v5e' "$tmp/mem.out" ||
	fail "mem --target did not win over the config: $(head -c 300 "$tmp/mem.out")"
exit $st
