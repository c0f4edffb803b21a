#!/bin/sh
# test_drop.sh - the stages drop the pages of a mapped input they are done
# with (source_drop, docs/bench.md "Memory") and read them again when they
# need them.  With HLO_DROP_BYTES=4096 they drop after every page's worth
# instead of every 2 MiB: `fmt`, `mem`, `check --format json` and
# `annotate` must print byte for byte what they print when nothing is
# dropped, serially and in pieces, and HLO_DROP_TRACE must show that pages
# were dropped.  Inputs are the 40 largest compiles of corpora/xla
# (unzipped: a gzip input is read, not mapped) and the real corpus.
. tests/lib.sh
never=999999999999

# same FILE: every command agrees with and without dropping.
same() {
	for cmd in "fmt" "mem" "check --no-config --format json --target tpu-v5e" "annotate --no-config"; do
		# shellcheck disable=SC2086  # cmd is split on purpose
		base "HLO_DROP_BYTES=$never" $cmd -j 1 "$1"
		for pieces in $never 1; do
			# shellcheck disable=SC2086
			agree "HLO_DROP_BYTES=4096 HLO_PARSE_PIECES_MIN=$pieces" $cmd -j 3 "$1"
		done
	done
}

n=0
dropped=0
for z in $(ls -S corpora/xla/out/*/*/*/after_optimizations.hlo.gz | head -n 40); do
	n=$((n + 1))
	gunzip -c "$z" >"$tmp/in$n.hlo"
	same "$tmp/in$n.hlo"
	HLO_DROP_BYTES=4096 HLO_DROP_TRACE=1 "$HLOLINT" check --no-config "$tmp/in$n.hlo" 2>&1 >/dev/null |
		grep -q 'pages dropped [1-9][0-9]* times$' && dropped=$((dropped + 1))
done
[ $n -ge 40 ] || fail "only $n compiles in corpora/xla/out"
[ $dropped = $n ] || fail "pages were dropped on $dropped of $n inputs"
# Nothing is dropped by default from an input under the 2 MiB batch.
HLO_DROP_TRACE=1 "$HLOLINT" check --no-config "$tmp/in1.hlo" 2>&1 >/dev/null |
	grep -q 'pages dropped 0 times$' || fail "a small input had pages dropped by default"

if [ -d ../shared/corpora/real ]; then
	for f in $(find ../shared/corpora/real -type f \( -name '*.txt' -o -name '*.hlo' \) | sort); do
		same "$f"
	done
else
	echo "note: ../shared/corpora/real is absent; its part is skipped"
fi
exit $st
