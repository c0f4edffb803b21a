#!/bin/sh
# suite: long
# test_endless_inputs.sh - inputs with no end or a huge inflated size are
# judged from their first bytes (issue 45: /dev/zero and an 8 MB gzip of
# 8 GB of zeros were read and inflated whole, 8 GB and 100 s): /dev/zero,
# /dev/urandom, a pipe of zeros, --baseline /dev/zero and a gzip of 200 MB
# of zeros are "binary file, not HLO text" at once; a gzip of text that
# inflates more than 100 times (README "Limits") is refused with a reason.
# Each ends in exit 2 within seconds and (where GNU time is there) under
# 100 MB of memory (but the text bomb, which stops at 100x its size).
. tests/lib.sh
# quick NAME RSS-LIMIT-KB REGEX CMD...: exit 2, first stderr line matches
quick() {
	name=$1 lim=$2 re=$3
	shift 3
	if [ -x /usr/bin/time ]; then
		timeout 20 /usr/bin/time -f '%M' -o "$tmp/rss" "$@" >/dev/null 2>"$tmp/err"
	else
		timeout 20 "$@" >/dev/null 2>"$tmp/err"
	fi
	rc=$?
	[ $rc = 2 ] || fail "$name: exit $rc, want 2: $(head -n 1 "$tmp/err")"
	head -n 1 "$tmp/err" | grep -q -- "$re" || fail "$name: $(head -n 1 "$tmp/err"), want /$re/"
	if [ -s "$tmp/rss" ]; then
		kb=$(tail -n 1 "$tmp/rss")
		[ "$kb" -le "$lim" ] || fail "$name: $kb KB of memory, want at most $lim"
		rm -f "$tmp/rss"
	fi
}
quick dev-zero 102400 '^/dev/zero:1:1: error: binary file, not HLO text$' "$HLOLINT" parse /dev/zero
quick dev-urandom 102400 '^/dev/urandom:1:1: error: binary file' "$HLOLINT" parse /dev/urandom
quick baseline-zero 102400 '^/dev/zero:1:1: error: binary file, not HLO text$' \
	"$HLOLINT" check --no-config --baseline /dev/zero tests/mem/sort_in_place.hlo
quick check-zero 102400 '^/dev/zero:1:1: error: binary file' "$HLOLINT" check --no-config /dev/zero
quick mem-zero 102400 '^/dev/zero:1:1: error: binary file' "$HLOLINT" mem --no-config /dev/zero
quick oom-zero 102400 'error' "$HLOLINT" oom --no-config /dev/zero
head -c 200000000 /dev/zero | gzip -1 >"$tmp/zeros.hlo.gz"
quick gzip-zeros 102400 "^$tmp/zeros.hlo.gz:1:1: error: binary file, not HLO text\$" "$HLOLINT" parse "$tmp/zeros.hlo.gz"
yes '// a comment line' | head -c 300000000 | gzip -9 >"$tmp/text.hlo.gz"
quick gzip-text 1048576 "error: cannot decompress '$tmp/text.hlo.gz': it inflates to more than 100 times its size" \
	"$HLOLINT" parse "$tmp/text.hlo.gz"
# An endless pipe of zeros on standard input.
(timeout 20 "$HLOLINT" parse - >/dev/null 2>"$tmp/err"; echo $? >"$tmp/rc") </dev/zero
[ "$(cat "$tmp/rc")" = 2 ] || fail "stdin zeros: exit $(cat "$tmp/rc")"
( cat /dev/zero | timeout 20 "$HLOLINT" parse - >/dev/null 2>"$tmp/err"; echo $? >"$tmp/rc") 2>/dev/null
[ "$(cat "$tmp/rc")" = 2 ] || fail "piped zeros: exit $(cat "$tmp/rc")"
grep -q '^<stdin>:1:1: error: binary file' "$tmp/err" || fail "stdin zeros: $(head -n 1 "$tmp/err")"
exit $st
