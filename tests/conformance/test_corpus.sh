#!/bin/sh
# suite: long
# test_corpus.sh - conformance of hlolint against the shared corpora
# (../shared/corpora from the project root; skipped when absent):
#   (a) every real module (real/*/*.hlo and *.hlotxt) parses
#   (b) xla-parser-tests: whole-module ok/ inputs parse (>= 98%); bad/ inputs
#       whose INDEX notes say "reject-layer: lex|syntax" are rejected with a
#       located error (100%); all bad/ inputs rejected (>= 60%)
#   (c) round trip: ok/long.* and ok/short.* without .expected reprint
#       byte-for-byte with fmt --style=long|short (>= 90%); nonrt.* vs their
#       .expected after trimming, real modules reprinted byte-for-byte by
#       fmt (both informational)
#   (d) for every ok/ and real/ file that parses: fmt output re-parses and
#       fmt is idempotent, in each style (100%)
# Prints one ratio per line.  PART=abcd selects parts; VERBOSE=1 lists every
# failure (default: the first 15 per check).
HLOLINT=${HLOLINT:-build/hlolint}
CORPORA=${CORPORA:-../shared/corpora}
PART=${PART:-abcd}
LIST=${VERBOSE:+100000}
LIST=${LIST:-15}
LC_ALL=C
export LC_ALL

if [ ! -d "$CORPORA/real" ] || [ ! -f "$CORPORA/xla-parser-tests/INDEX.tsv" ]; then
	echo "corpora not found at $CORPORA (expected real/ and xla-parser-tests/): skipped"
	exit 77
fi
X=$CORPORA/xla-parser-tests
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-corpus.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
failed_checks=0

pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.1f%%", 100 * a / b }'; }
atleast() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { exit !(b > 0 && a * 100 >= t * b) }'; }

# report LABEL GOOD TOTAL VERB REQUIRED_PCT(or -) FAILLIST
report() {
	line="$1: $2/$3 $4 ($(pct "$2" "$3"))"
	if [ "$5" = - ]; then
		echo "$line [informational]"
	elif atleast "$2" "$3" "$5"; then
		echo "$line [ok, need >= $5%]"
	else
		echo "$line [FAIL, need >= $5%]"
		failed_checks=$((failed_checks + 1))
	fi
	if [ -s "$6" ] && [ "$2" -lt "$3" ]; then
		head -n "$LIST" "$6" | sed 's/^/    /'
		n=$(wc -l <"$6")
		[ "$n" -gt "$LIST" ] && echo "    ... and $((n - LIST)) more (VERBOSE=1 lists all)"
	fi
}

# run OUT ERR ARGS...: hlolint with a time limit; returns its status
run() {
	o=$1 e=$2
	shift 2
	timeout 60 "$HLOLINT" "$@" >"$o" 2>"$e"
}

located='^[^:][^:]*:[0-9][0-9]*:[0-9][0-9]*: error: '

# ---- (a) real modules --------------------------------------------------------
real_files() {
	for f in "$CORPORA"/real/*/*.hlo "$CORPORA"/real/*/*.hlotxt; do
		[ -f "$f" ] && echo "$f"
	done
}

case $PART in *a*)
	: >"$tmp/fail"
	good=0 total=0
	for f in $(real_files); do
		total=$((total + 1))
		if run "$tmp/out" "$tmp/err" parse "$f"; then
			good=$((good + 1))
		else
			echo "${f#"$CORPORA"/} (exit $?): $(grep -m1 ': error: ' "$tmp/err" | cut -c1-160)" >>"$tmp/fail"
		fi
	done
	report "real corpus" "$good" "$total" parse 100 "$tmp/fail"
	;;
esac

# ---- (b) xla-parser-tests ok/ and bad/ -----------------------------------------
case $PART in *b*)
	awk -F'\t' 'NR > 1 && $1 ~ /^ok\// && $5 !~ /non-module/ { print $1 }' "$X/INDEX.tsv" >"$tmp/okmods"
	: >"$tmp/fail"
	good=0 total=0
	while IFS= read -r f; do
		total=$((total + 1))
		if run "$tmp/out" "$tmp/err" parse "$X/$f"; then
			good=$((good + 1))
		else
			echo "$f: $(grep -m1 ': error: ' "$tmp/err" | sed 's/^[^ ]* //' | cut -c1-140)" >>"$tmp/fail"
		fi
	done <"$tmp/okmods"
	report "xla ok/ whole modules" "$good" "$total" parse 98 "$tmp/fail"

	awk -F'\t' 'NR > 1 && $1 ~ /^bad\// { print $1 "\t" $5 }' "$X/INDEX.tsv" >"$tmp/bad"
	: >"$tmp/fail_ls"
	: >"$tmp/fail_all"
	ls_good=0 ls_total=0 all_good=0 all_total=0
	while IFS='	' read -r f notes; do
		all_total=$((all_total + 1))
		run "$tmp/out" "$tmp/err" parse "$X/$f"
		rc=$?
		rejected=
		if [ "$rc" -eq 2 ] && grep -q "$located" "$tmp/err"; then
			rejected=1
			all_good=$((all_good + 1))
		else
			echo "$f (exit $rc): $(echo "$notes" | cut -c1-100)" >>"$tmp/fail_all"
		fi
		case $notes in
		*"reject-layer: lex"* | *"reject-layer: syntax"*)
			ls_total=$((ls_total + 1))
			if [ -n "$rejected" ]; then
				ls_good=$((ls_good + 1))
			else
				echo "$f (exit $rc): $(echo "$notes" | cut -c1-100)" >>"$tmp/fail_ls"
			fi
			;;
		esac
	done <"$tmp/bad"
	report "xla bad/ lex+syntax layer" "$ls_good" "$ls_total" "rejected with a located error" 100 "$tmp/fail_ls"
	report "xla bad/ all" "$all_good" "$all_total" "rejected with a located error" 60 "$tmp/fail_all"
	;;
esac

# ---- (c) round trip ------------------------------------------------------------
case $PART in *c*)
	: >"$tmp/fail"
	good=0 total=0
	for style in long short; do
		for f in "$X"/ok/"$style".*.hlo; do
			[ -f "$f" ] || continue
			[ -f "${f%.hlo}.expected" ] && continue
			total=$((total + 1))
			if run "$tmp/out" "$tmp/err" fmt --style="$style" "$f" && cmp -s "$tmp/out" "$f"; then
				good=$((good + 1))
			else
				d=$(diff "$f" "$tmp/out" 2>/dev/null | grep -m1 '^[<>]' | cut -c1-140)
				echo "ok/${f##*/}: ${d:-$(head -n 1 "$tmp/err" | cut -c1-140)}" >>"$tmp/fail"
			fi
		done
	done
	report "xla round trip (long+short)" "$good" "$total" "reprint byte-for-byte" 90 "$tmp/fail"

	: >"$tmp/fail"
	good=0 total=0
	trim() { awk '{ a[NR] = $0 } END { s = 1; while (s <= NR && a[s] ~ /^[ \t\r]*$/) s++
		e = NR; while (e >= s && a[e] ~ /^[ \t\r]*$/) e--
		for (i = s; i <= e; i++) { l = a[i]; if (i == s) sub(/^[ \t\r]+/, "", l); if (i == e) sub(/[ \t\r]+$/, "", l); print l } }' "$1"; }
	for f in "$X"/ok/nonrt.*.hlo; do
		[ -f "$f" ] && [ -f "${f%.hlo}.expected" ] || continue
		total=$((total + 1))
		if run "$tmp/out" "$tmp/err" fmt --style=short "$f"; then
			trim "$tmp/out" >"$tmp/a"
			trim "${f%.hlo}.expected" >"$tmp/b"
			if cmp -s "$tmp/a" "$tmp/b"; then
				good=$((good + 1))
				continue
			fi
			d=$(diff "$tmp/b" "$tmp/a" | grep -m1 '^[<>]' | cut -c1-140)
		else
			d=$(head -n 1 "$tmp/err" | cut -c1-140)
		fi
		echo "ok/${f##*/}: $d" >>"$tmp/fail"
	done
	report "xla nonrt short vs .expected" "$good" "$total" "match after trimming" - "$tmp/fail"

	# Real modules come from many XLA versions and some are hand-edited, so
	# this one is only informational.
	: >"$tmp/fail"
	good=0 total=0
	for f in $(real_files); do
		total=$((total + 1))
		if run "$tmp/out" "$tmp/err" fmt "$f" && cmp -s "$tmp/out" "$f"; then
			good=$((good + 1))
		else
			d=$(diff "$f" "$tmp/out" 2>/dev/null | grep -m1 '^[<>]' | cut -c1-120)
			echo "${f#"$CORPORA"/}: $d" >>"$tmp/fail"
		fi
	done
	report "real corpus reprinted by fmt (default style)" "$good" "$total" "byte-for-byte" - "${VERBOSE:+$tmp/fail}"
	;;
esac

# ---- (d) fmt re-parses and is idempotent -------------------------------------
case $PART in *d*)
	{ for f in "$X"/ok/*.hlo; do echo "$f"; done; real_files; } >"$tmp/files"
	jobs=$(nproc 2>/dev/null || echo 2)
	export HLOLINT CORPORA
	TMPDIR=$tmp xargs -P "$jobs" -n 1 sh tests/conformance/fmt_stable_one.sh <"$tmp/files" >"$tmp/d.out"
	total=$(grep -c '^RE ' "$tmp/d.out")
	re_good=$(grep -c '^RE ok' "$tmp/d.out")
	id_good=$(grep -c '^ID ok' "$tmp/d.out")
	grep '^RE fail' "$tmp/d.out" | cut -c9- >"$tmp/fail_re"
	grep '^ID fail' "$tmp/d.out" | cut -c9- >"$tmp/fail_id"
	# Every ok/ file and every real module parses, so far fewer styles than
	# this means the runs themselves failed (a crashing binary).
	[ "$total" -ge 900 ] || { echo "only $total fmt runs completed (want >= 900)"; failed_checks=$((failed_checks + 1)); }
	report "fmt output re-parses (3 styles x ok/+real/)" "$re_good" "$total" re-parse 100 "$tmp/fail_re"
	report "fmt idempotent (3 styles x ok/+real/)" "$id_good" "$total" "fmt(fmt(x)) == fmt(x)" 100 "$tmp/fail_id"
	;;
esac

if [ "$failed_checks" -gt 0 ]; then
	echo "$failed_checks conformance check(s) below their threshold"
	exit 1
fi
echo "all conformance checks met their thresholds"
