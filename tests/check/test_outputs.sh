#!/bin/sh
# test_outputs.sh - the JSON and SARIF outputs of `hlolint check` validate
# structurally (tests/check/json_check.c, compiled here): on every golden
# input of tests/check and tests/rules at once, with '-' (stdin) among the
# files, and on the shared corpus when it is present.
LC_ALL=C
export LC_ALL
HLOLINT=${HLOLINT:-build/hlolint}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-outputs.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -std=c11 -O1 -Wall -Wextra -Werror -o "$tmp/json_check" tests/check/json_check.c || exit 1

# Inputs that parse (the malformed ones are tested by their goldens).
inputs=$(ls tests/check/*.hlo tests/rules/*/*.hlo | grep -v -e malformed -e usage_ -e _errors)
st=0
check() { # FORMAT FILE... : the document validates and exit is 0 or 1
	fmt=$1
	shift
	"$HLOLINT" check --no-config --format "$fmt" "$@" >"$tmp/out.$fmt" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -gt 1 ]; then
		echo "check --format $fmt exited $rc"
		head -n 5 "$tmp/err"
		st=1
		return
	fi
	"$tmp/json_check" "$fmt" "$tmp/out.$fmt" || st=1
}
# shellcheck disable=SC2086
check sarif $inputs
# shellcheck disable=SC2086
check json $inputs
# stdin among the files: its path is <stdin>, percent-encoded in the SARIF uri
# shellcheck disable=SC2086
check sarif - tests/check/format_sarif.hlo <tests/rules/host-transfer/fires_debug_print.hlo
grep -q '"uri": "%3Cstdin%3E"' "$tmp/out.sarif" || { echo "stdin uri missing"; st=1; }

# A baseline makes every result carry a baselineState.
"$HLOLINT" check --no-config --format sarif --baseline tests/check/data/partial.baseline \
	tests/check/format_sarif.hlo >"$tmp/b.sarif"
"$tmp/json_check" sarif "$tmp/b.sarif" || st=1
[ "$(grep -c '"baselineState"' "$tmp/b.sarif")" -eq 3 ] || { echo "baselineState count"; st=1; }

# Fingerprints never contain instruction names: identical modules whose
# instructions are renamed (print.2 -> print.77) keep their fingerprints.
sed 's/print\.2/print.77/g; s/main\.7/main.123/g' tests/check/format_json.hlo >"$tmp/renamed.hlo"
"$HLOLINT" check --no-config --format json tests/check/format_json.hlo | grep '"fingerprint"' >"$tmp/fp1"
"$HLOLINT" check --no-config --format json "$tmp/renamed.hlo" | grep '"fingerprint"' >"$tmp/fp2"
cmp -s "$tmp/fp1" "$tmp/fp2" || { echo "fingerprints changed with instruction names"; diff "$tmp/fp1" "$tmp/fp2"; st=1; }

corpus=../shared/corpora/real
if [ -d "$corpus" ]; then
	# shellcheck disable=SC2046
	check sarif $(ls "$corpus"/*/*.hlo)
	# shellcheck disable=SC2046
	check json $(ls "$corpus"/*/*.hlo)
else
	echo "note: $corpus absent, corpus outputs not validated"
fi
exit $st
