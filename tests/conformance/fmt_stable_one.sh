#!/bin/sh
# fmt_stable_one.sh FILE - part (d) of test_corpus.sh for one file, so that
# xargs -P can spread the files over the cores: for each style, fmt FILE
# must succeed, its output must re-parse, and fmt of it must print the same
# text.  Prints "RE|ID ok" or "RE|ID fail NAME --style=S: why" lines.  A
# file that fmt rejects in the default style did not parse and is skipped
# (parts (a) and (b) count those).  Not a test by itself (no test_ prefix).
HLOLINT=${HLOLINT:-build/hlolint}
CORPORA=${CORPORA:-../shared/corpora}
f=$1
name=${f#"$CORPORA"/}
w=$(mktemp -d "${TMPDIR:-/tmp}/fmt-one.XXXXXX") || exit 1
trap 'rm -rf "$w"' EXIT
run() {
	o=$1 e=$2
	shift 2
	timeout 60 "$HLOLINT" "$@" >"$o" 2>"$e"
}
for style in default long short; do
	run "$w/f1.hlo" "$w/err" fmt --style="$style" "$f"
	rc=$?
	[ "$rc" -eq 2 ] && [ "$style" = default ] && exit 0
	if [ "$rc" -ne 0 ]; then
		echo "RE fail $name --style=$style: fmt failed (exit $rc): $(head -n 1 "$w/err" | cut -c1-120)"
		echo "ID fail $name --style=$style: fmt failed"
		continue
	fi
	if run "$w/f2.hlo" "$w/err" fmt --style="$style" "$w/f1.hlo"; then
		echo "RE ok"
		if cmp -s "$w/f1.hlo" "$w/f2.hlo"; then
			echo "ID ok"
		else
			echo "ID fail $name --style=$style: $(diff "$w/f1.hlo" "$w/f2.hlo" | grep -m1 '^[<>]' | cut -c1-120)"
		fi
	else
		rc=$?
		e=$(grep -m1 ': error: ' "$w/err" | sed 's/^[^ ]* //' | cut -c1-120)
		echo "RE fail $name --style=$style: output does not re-parse (exit $rc): $e"
		echo "ID fail $name --style=$style: output does not re-parse"
	fi
done
