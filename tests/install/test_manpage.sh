#!/bin/sh
# test_manpage.sh - the man page make install installs (docs/hlolint.1) has a
# section for every command `hlolint --help` lists, and the version
# `hlolint --version` prints.
. tests/lib.sh
"$HLOLINT" --help >"$tmp/help" 2>&1 || fail "hlolint --help: exit $?"
n=0
for c in $(sed -n 's/^  \([a-z][a-z]*\)  *.*/\1/p' "$tmp/help"); do
	n=$((n + 1))
	grep -q "^\.SH \"COMMAND: $c\"" docs/hlolint.1 || fail "docs/hlolint.1 has no section for '$c'"
done
[ "$n" -ge 9 ] || fail "hlolint --help lists $n commands, expected at least 9"
v=$("$HLOLINT" --version | sed -n 's/^hlolint //p')
[ -n "$v" ] || fail "hlolint --version printed no version"
grep -q "\"hlolint $v\"" docs/hlolint.1 || fail "docs/hlolint.1 is not for version $v"
exit $st
