#!/bin/sh
# test_help.sh - each command's --help and the man page are written from
# the option tables (help.c, issue 46): the man page in the tree is what
# `hlolint help --man` prints (make man); every option a command's help
# shows is one the command accepts; the rule commands list every rule and
# every rule option `hlolint rules` shows; each help names the exit status (and
# HLOLINT_THREADS where -j is taken) and fits 100 columns.
. tests/lib.sh
"$HLOLINT" help --man >"$tmp/man" || fail "help --man: exit $?"
cmp -s "$tmp/man" docs/hlolint.1 || fail "docs/hlolint.1 is not what 'hlolint help --man' prints (run make man)"
sed 's/\\-/-/g' "$tmp/man" >"$tmp/man.txt"
"$HLOLINT" rules | sed -n 's/^  \(--[a-z0-9-]*\) .*/\1/p' >"$tmp/rule-opts"
[ "$(wc -l <"$tmp/rule-opts")" -ge 10 ] || fail "hlolint rules lists $(wc -l <"$tmp/rule-opts") options"
for c in parse fmt mem check rules annotate report diff oom; do
	"$HLOLINT" "$c" --help >"$tmp/h" 2>&1 || fail "$c --help: exit $?"
	grep -q "^usage: hlolint $c " "$tmp/h" || fail "$c --help: no usage line"
	grep -q '^exit status: ' "$tmp/h" || fail "$c --help: no exit status"
	awk 'length > 100 { bad = 1 } END { exit bad }' "$tmp/h" || fail "$c --help: a line over 100 columns"
	grep -q -- '-j, --jobs' "$tmp/h" && { grep -q 'HLOLINT_THREADS=N' "$tmp/h" || fail "$c --help: no HLOLINT_THREADS"; }
	# Every option shown is accepted: with a value when shown with one.
	n=0
	sed -n 's/^  \(-[a-z], \)\{0,1\}\(--[a-z0-9-]*\)\( [^ ][^ ]*\)\{0,1\}.*/\2\3/p' "$tmp/h" >"$tmp/opts"
	while read -r o v; do
		n=$((n + 1))
		arg=$o
		[ -n "$v" ] && arg="$o=1"
		"$HLOLINT" "$c" "$arg" --help >/dev/null 2>"$tmp/e" || fail "$c: '$arg' from its help: $(cat "$tmp/e")"
		grep -q -- "^\\.B .*$o" "$tmp/man.txt" || fail "$c: $o is not in the man page"
	done <"$tmp/opts"
	[ $n -ge 1 ] || fail "$c --help shows no option"
	case $c in check | annotate | report | diff | oom)
		while read -r o; do
			grep -q "^  $o " "$tmp/h" || fail "$c --help does not list the rule option $o"
		done <"$tmp/rule-opts"
		for r in $("$HLOLINT" rules | sed -n 's/^\([a-z][a-z-]*\) .*/\1/p'); do
			grep -q "^  $r  " "$tmp/h" || fail "$c --help does not list the rule $r"
			grep -q "^\\.B $r\$" "$tmp/man.txt" || fail "the man page does not list the rule $r"
		done ;;
	esac
done
exit $st
