#!/bin/sh
# test_corpus_check.sh - `hlolint check` (all rules, JSON) over every module
# of ../shared/corpora/real, one file at a time, without a target and with
# --target tpu-v5e (default tiling and a capacity, so the memory rules
# speak): nothing may crash (exit above 2, a signal or a sanitizer report
# fails); prints the number of findings per rule and severity, and the
# files with findings, for each run.
LC_ALL=C
export LC_ALL
HLOLINT=${HLOLINT:-build/hlolint}
corpus=../shared/corpora/real
if [ ! -d "$corpus" ]; then
	echo "skip: $corpus is absent (third-party corpus, read-only, not in the project)"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-corpus-check.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
st=0
for target in none tpu-v5e; do
	opt=
	[ "$target" = none ] || opt="--target $target"
	files=0
	: >"$tmp/all"
	for f in "$corpus"/*/*.hlo; do
		files=$((files + 1))
		# shellcheck disable=SC2086  # opt is empty or two words
		"$HLOLINT" check --no-config $opt --format json "$f" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ "$rc" -gt 2 ] || grep -aqE 'Sanitizer|runtime error:' "$tmp/err"; then
			echo "CRASH (exit $rc, target $target): $f"
			head -n 20 "$tmp/err"
			st=1
			continue
		fi
		[ "$rc" -eq 2 ] && echo "parse errors (exit 2): $f"
		# "rule" and "severity" lines of the findings, paired.
		awk -v f="$f" '/^ *"rule": /{r=$2} /^ *"severity": /{s=$2; gsub(/[",]/,"",r); gsub(/[",]/,"",s); print r, s, f}' \
			"$tmp/out" >>"$tmp/all"
	done
	echo "== target $target: $files files checked"
	echo "findings per rule and severity:"
	awk '{print "  " $1, $2}' "$tmp/all" | sort | uniq -c
	echo "files with findings:"
	awk '{print $3}' "$tmp/all" | sort | uniq -c
done
exit $st
