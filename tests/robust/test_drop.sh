#!/bin/sh
# suite: long
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

# resident_ok NAME: `check` on $tmp/NAME.hlo, serially and in pieces, has at
# most a quarter of the text resident whenever pages are dropped (256 KiB
# at a time).
resident_ok() {
	for how in "-j 1" "-j 2"; do
		# shellcheck disable=SC2086  # how is split on purpose
		HLO_DROP_BYTES=262144 HLO_DROP_TRACE=1 HLO_PARSE_PIECES_MIN=1 "$HLOLINT" check --no-config $how \
			"$tmp/$1.hlo" >/dev/null 2>"$tmp/$1.err"
		rc=$?
		[ $rc -eq 0 ] || fail "check $how on the $1 module: exit $rc ($(head -c 300 "$tmp/$1.err"))"
		sed -n 's/.* at most \([0-9]*\) KiB of \([0-9]*\) resident at a drop$/\1 \2/p' "$tmp/$1.err" >"$tmp/kib"
		read -r most all <"$tmp/kib" || fail "check $how: no resident figure in $(head -c 300 "$tmp/$1.err")"
		[ "${most:-x}" -ge 0 ] 2>/dev/null && [ "$most" -le $((all / 4)) ] ||
			fail "check $how on the $1 module: ${most:-?} KiB of ${all:-?} resident at a drop (at most a quarter)"
	done
}

n=0
dropped=0
for z in $(ls -S corpora/xla/out/*/*/*/after_optimizations.hlo.gz | head -n 40); do
	n=$((n + 1))
	gunzip -c "$z" >"$tmp/in$n.hlo"
	same "$tmp/in$n.hlo"
	HLO_DROP_BYTES=4096 HLO_DROP_TRACE=1 "$HLOLINT" check --no-config "$tmp/in$n.hlo" 2>&1 >/dev/null |
		grep -q 'pages dropped [1-9][0-9]* times;' && dropped=$((dropped + 1))
done
[ $n -ge 40 ] || fail "only $n compiles in corpora/xla/out"
[ $dropped = $n ] || fail "pages were dropped on $dropped of $n inputs"
# Nothing is dropped by default from an input under the 2 MiB batch.
HLO_DROP_TRACE=1 "$HLOLINT" check --no-config "$tmp/in1.hlo" 2>&1 >/dev/null |
	grep -q 'pages dropped 0 times;' || fail "a small input had pages dropped by default"

# No stage keeps pages from all over the file: a module of 30,000 small
# computations (12 MB), each called from ENTRY, has at most a quarter of its
# text resident whenever pages are dropped (256 KiB at a time), serially and
# in pieces.  (Resolve once read every computation's name from its header and
# kept them all: the whole text was resident.)
awk 'BEGIN {
	n = 30000; pad = sprintf("%0200d", 0)
	print "HloModule spread, is_scheduled=true\n"
	for (k = 0; k < n; k++) {
		printf "%%f.%d (p.%d: f32[8]) -> f32[8] {\n  %%p.%d = f32[8]{0} parameter(0)\n", k, k, k
		printf "  ROOT %%n.%d = f32[8]{0} negate(%%p.%d), metadata={op_name=\"%s\"}\n}\n\n", k, k, pad
	}
	print "ENTRY %main (a: f32[8]) -> f32[8] {\n  %c.0 = f32[8]{0} parameter(0)"
	for (k = 0; k < n; k++)
		printf "  %s%%c.%d = f32[8]{0} call(%%c.%d), to_apply=%%f.%d\n", k == n - 1 ? "ROOT " : "", k + 1, k, k
	print "}"
}' >"$tmp/spread.hlo"
resident_ok spread
# Nor one large computation: 48,000 get-tuple-elements in %big, which holds
# 13 of the 19 MB of a module (small computations around it).  Its
# indexes the builder decodes as it goes (resolving them when %big closed, on
# the piece's thread, read its text back), and the search for a place to cut
# the module in pieces, which starts inside it, gives back what it read.
awk 'BEGIN {
	pad = sprintf("%0200d", 0)
	print "HloModule wide, is_scheduled=true\n"
	for (k = 0; k < 17000; k++) {
		if (k == 5800) {
			print "%big (t: (f32[8], f32[8])) -> f32[8] {\n  %t = (f32[8]{0}, f32[8]{0}) parameter(0)"
			for (j = 0; j < 48000; j++)
				printf "  %%g.%d = f32[8]{0} get-tuple-element(%%t), index=%d, metadata={op_name=\"%s\"}\n", j, j % 2, pad
			print "  ROOT %r = f32[8]{0} negate(%g.0)\n}\n"
		}
		printf "%%f.%d (p.%d: f32[8]) -> f32[8] {\n  %%p.%d = f32[8]{0} parameter(0)\n", k, k, k
		printf "  ROOT %%n.%d = f32[8]{0} negate(%%p.%d), metadata={op_name=\"%s\"}\n}\n\n", k, k, pad
	}
	print "ENTRY %main (a: (f32[8], f32[8])) -> f32[8] {\n  %a = (f32[8]{0}, f32[8]{0}) parameter(0)"
	print "  ROOT %c = f32[8]{0} call(%a), to_apply=%big\n}"
}' >"$tmp/wide.hlo"
resident_ok wide
# Its arena grows blocks of 2 MiB and more (xmalloc_huge): with no huge
# pages, or huge pages for the first 2 MiB only, nothing but speed changes.
base "HLO_HUGE_MB=100000" check --no-config --format json -j 2 "$tmp/spread.hlo"
agree "HLO_HUGE_MB=0" check --no-config --format json -j 2 "$tmp/spread.hlo"
agree "HLO_HUGE_MB=2" check --no-config --format json -j 1 "$tmp/spread.hlo"

if [ -d ../shared/corpora/real ]; then
	for f in $(find ../shared/corpora/real -type f \( -name '*.txt' -o -name '*.hlo' \) | sort); do
		same "$f"
	done
else
	echo "note: ../shared/corpora/real is absent; its part is skipped"
fi
exit $st
