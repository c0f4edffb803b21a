#!/bin/sh
# test_io.sh - inputs that are not readable modules: a missing file, a
# directory, truncated and corrupt gzip data, empty and bad standard input.
# Each gives exit 2 and one "error:" line naming the input (never a crash);
# gzip and stdin inputs that are fine parse.
HLOLINT=${HLOLINT:-build/hlolint}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-io.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0

# expect NAME RC REGEX -- ARGS...   (stdin from $tmp/stdin)
expect() {
	name=$1 want=$2 re=$3
	shift 4
	timeout 10 "$HLOLINT" "$@" <"$tmp/stdin" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "FAIL $name: exit $rc, expected $want"; head -n 3 "$tmp/err"; fails=$((fails + 1))
	elif [ -n "$re" ] && ! head -n 1 "$tmp/err" | grep -q -- "$re"; then
		echo "FAIL $name: first stderr line does not match /$re/:"; head -n 1 "$tmp/err"
		fails=$((fails + 1))
	elif [ -z "$re" ] && [ -s "$tmp/err" ]; then
		echo "FAIL $name: unexpected stderr:"; head -n 3 "$tmp/err"; fails=$((fails + 1))
	else
		echo "ok   $name"
	fi
}

: >"$tmp/stdin"
printf 'ENTRY %%m {\n  ROOT %%p = f32[] parameter(0)\n}\n' >"$tmp/ok.hlo"
gzip -c "$tmp/ok.hlo" >"$tmp/ok.hlo.gz"
head -c 20 "$tmp/ok.hlo.gz" >"$tmp/trunc.hlo.gz"
printf '\037\213garbagegarbagegarbage' >"$tmp/corrupt.hlo.gz"
: | gzip -c >"$tmp/empty.hlo.gz"

expect missing 2 "error: cannot open '$tmp/missing.hlo': No such file or directory\$" -- parse "$tmp/missing.hlo"
# A folder is an --xla_dump_to folder (issue 12): one without modules is an
# error that says so; a folder of broken modules is located in them.
mkdir "$tmp/nomodules"
expect directory 2 "error: no module in this folder (expected XLA's module_\*.after_optimizations.txt)\$" -- parse "$tmp/nomodules"
expect directory-modules 2 "error: cannot decompress '$tmp/corrupt.hlo.gz': invalid gzip data\$" -- parse "$tmp"
expect gzip-ok 0 "" -- parse "$tmp/ok.hlo.gz"
expect gzip-truncated 2 "error: cannot decompress '$tmp/trunc.hlo.gz': unexpected end of gzip data\$" -- parse "$tmp/trunc.hlo.gz"
expect gzip-corrupt 2 "error: cannot decompress '$tmp/corrupt.hlo.gz': invalid gzip data\$" -- parse "$tmp/corrupt.hlo.gz"
expect gzip-empty 2 "^$tmp/empty.hlo.gz:1:1: error: empty input" -- parse "$tmp/empty.hlo.gz"
expect stdin-empty 2 "^<stdin>:1:1: error: empty input" -- parse -
cp "$tmp/ok.hlo" "$tmp/stdin"
expect stdin-ok 0 "" -- parse -
printf 'ENTRY %%m {\n  ROOT %%p = f32[] frob(%%p)\n}\n' >"$tmp/stdin"
expect stdin-bad 2 "^<stdin>:2:19: error: unknown opcode 'frob'\$" -- parse -
: >"$tmp/stdin"
expect fmt-missing 2 "error: cannot open '$tmp/missing.hlo': No such file or directory\$" -- fmt "$tmp/missing.hlo"
# oom's log: the same one line, with the prefix (issue 45: it had none).
expect oom-missing 2 "^hlolint: error: cannot open '$tmp/missing.log': No such file or directory\$" -- oom "$tmp/missing.log"
expect oom-directory 2 "^hlolint: error: cannot read '$tmp/nomodules': Is a directory\$" -- oom "$tmp/nomodules"
[ "$fails" -eq 0 ]
