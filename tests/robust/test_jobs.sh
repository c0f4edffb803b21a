#!/bin/sh
# suite: long
# test_jobs.sh - -j N: files are read on N threads, and what is printed
# (stdout, stderr, exit status) is the same byte for byte as with -j 1, in
# input order, for parse, mem, check (every format; suppressions, a
# baseline matched in input order, --max-errors reached part-way), diff and
# oom over folders.  The inputs are corpora/xla's 151 compiles plus broken
# modules from tests/errors; two pipes show the inputs are read at once;
# -j 0 and -j x are usage errors.
. tests/lib.sh

# Inputs: modules with their XLA sidecars (mem's "XLA said"), and broken ones
# placed among them so errors land in the middle of the run.
mkdir -p "$tmp/in"
n=0
for z in corpora/xla/out/*/*/*/after_optimizations.hlo.gz; do
	n=$((n + 1))
	dir=${z%/after_optimizations.hlo.gz}
	name=$(printf 'm%03d' $n)
	gzip -dc "$z" >"$tmp/in/$name.txt"
	[ -f "$dir/buffer-assignment.txt.gz" ] &&
		gzip -dc "$dir/buffer-assignment.txt.gz" >"$tmp/in/$name-buffer-assignment.txt"
done
[ $n -ge 100 ] || fail "only $n compiles in corpora/xla/out"
cp tests/errors/build_async_unknown_base.hlo "$tmp/in/m020b.txt"
cp tests/errors/build_blank_input.hlo "$tmp/in/m060b.txt"
cp tests/errors/build_async_excluded.hlo "$tmp/in/m100b.txt"
good=$(ls "$tmp"/in/m[0-9][0-9][0-9].txt)
all=$(ls "$tmp"/in/m[0-9][0-9][0-9].txt "$tmp"/in/m[0-9][0-9][0-9]b.txt | sort)

# same NAME WANT_RC CMD...: CMD with -j 1, 2 and 5 exits WANT_RC (a crash
# never does) and prints the same.  NAME's -j 1 output is kept in $tmp/NAME.
same() {
	_name=$1 _want=$2 _cmd=$3
	shift 3
	for _j in 1 2 5; do
		"$HLOLINT" "$_cmd" -j $_j "$@" >"$tmp/$_name.$_j.out" 2>"$tmp/$_name.$_j.err"
		_rc=$?
		[ $_rc = "$_want" ] || { fail "$_name -j $_j: exit $_rc, expected $_want"; head -3 "$tmp/$_name.$_j.err"; }
	done
	for _j in 2 5; do
		cmp -s "$tmp/$_name.1.out" "$tmp/$_name.$_j.out" || fail "$_name: -j $_j printed other output than -j 1"
		cmp -s "$tmp/$_name.1.err" "$tmp/$_name.$_j.err" || fail "$_name: -j $_j printed other errors than -j 1"
	done
	cp "$tmp/$_name.1.out" "$tmp/$_name"
}
same parse 0 parse $good
same parse_bad 2 parse --max-errors 0 $all
[ "$(grep -c ': error: ' "$tmp/parse_bad.1.err")" -ge 3 ] || fail "parse of the broken inputs reported under 3 errors"
# The cap is reached in the second broken file: later inputs are not read.
same parse_cap 2 parse --max-errors 2 $all
grep -q 'too many errors, stopping' "$tmp/parse_cap.1.err" || fail "--max-errors 2 did not stop the run"
grep -q 'm100b' "$tmp/parse_cap.1.err" && fail "the input after the cap was read"

same mem 2 mem $all
[ "$(grep -c '^hlolint memory estimate' "$tmp/mem")" = "$n" ] || fail "mem printed $(grep -c '^hlolint memory estimate' "$tmp/mem") modules, expected $n"
grep -q 'XLA said: ' "$tmp/mem" || fail "mem did not print XLA's figure beside any module"
same mem_json 2 mem --format json --top 3 $all

for f in text json sarif github; do
	same "check_$f" 2 check --no-config --target tpu-v5e --format $f $all
done
grep -q "in $n modules" "$tmp/check_text" || fail "check's summary does not count the modules: $(tail -1 "$tmp/check_text")"
same check_suppress 1 check --config tests/check/data/suppress.toml $good
same check_cap 2 check --no-config --max-errors 1 $all
same check_cap_json 2 check --no-config --format json --max-errors 2 $all
grep -q "\"errors\": \[" "$tmp/check_cap_json" || fail "check's JSON lists no errors"

# A baseline matches each fingerprint once, first come first served: with
# the same module twice, only the first copy's findings are the baseline.
cp "$tmp/in/m001.txt" "$tmp/in/copy_a.txt"
cp "$tmp/in/m001.txt" "$tmp/in/copy_b.txt"
"$HLOLINT" check --no-config --target tpu-v5e --write-baseline "$tmp/base" "$tmp/in/copy_a.txt" >/dev/null 2>&1
[ -s "$tmp/base" ] || fail "no baseline written for m001"
same check_baseline 1 check --no-config --target tpu-v5e --format json --baseline "$tmp/base" \
	"$tmp/in/copy_a.txt" $good "$tmp/in/copy_b.txt"
grep -q '"baseline": true' "$tmp/check_baseline" || fail "no finding matched the baseline"

# diff and oom over --xla_dump_to folders of several modules.
mkdir -p "$tmp/old" "$tmp/new"
k=0
for p in gpt/small gpt/medium padding/rows128 padding/rows129; do
	k=$((k + 1))
	gzip -dc corpora/xla/out/$p/cpu/after_optimizations.hlo.gz | sed "s/^HloModule [^ ,]*/HloModule prog$k/" \
		>"$tmp/old/module_000$k.prog$k.after_optimizations.txt"
	gzip -dc corpora/xla/out/$p/tpu-v5e/after_optimizations.hlo.gz | sed "s/^HloModule [^ ,]*/HloModule prog$k/" \
		>"$tmp/new/module_000$k.prog$k.after_optimizations.txt"
done
[ $k -ge 3 ] || fail "only $k modules for the diff folders"
same diff 0 diff --no-config "$tmp/old" "$tmp/old"
same diff_json 0 diff --no-config --format json "$tmp/old" "$tmp/new"
[ "$(grep -c '"module": "prog' "$tmp/diff_json")" = $k ] || fail "diff's JSON does not pair the $k modules"

o=corpora/xla/out/scan_offload/oom/tpu-v5e
mkdir -p "$tmp/oomdump"
cp "$tmp/old"/*.txt "$tmp/oomdump/"
gzip -dc $o/after_optimizations.hlo.gz >"$tmp/oomdump/module_0000.jit_train.after_optimizations.txt"
# The short report names no allocation: every module scores the same and
# the first in input order is the one, however the threads finish.
same oom 1 oom --no-config $o/error.txt "$tmp/oomdump"
grep -q 'module_0000' "$tmp/oom" || fail "oom did not pick the first of equally good modules"

# Really at once: the second input is a pipe whose writer feeds the first
# only after the second was read, which a one-at-a-time reader never does.
mkfifo "$tmp/p1" "$tmp/p2" || fail "mkfifo"
(cat "$tmp/in/m001.txt" >"$tmp/p2"; cat "$tmp/in/m002.txt" >"$tmp/p1") &
timeout 60 "$HLOLINT" mem -j 2 "$tmp/p1" "$tmp/p2" >"$tmp/pipes" 2>&1
rc=$?
if [ $rc != 0 ]; then
	fail "-j 2 did not read two inputs at once (exit $rc)"
	timeout 5 cat "$tmp/p2" "$tmp/p1" >/dev/null   # let the writer finish
fi
[ "$(grep -c '^hlolint memory estimate' "$tmp/pipes")" = 2 ] || fail "-j 2 over two pipes did not print both"
wait

"$HLOLINT" check -j 0 "$tmp/in/m001.txt" >/dev/null 2>"$tmp/err"
[ $? = 2 ] || fail "-j 0 did not exit 2"
grep -q 'at least 1' "$tmp/err" || fail "-j 0's error does not say why"
"$HLOLINT" mem -jx "$tmp/in/m001.txt" >/dev/null 2>"$tmp/err"
[ $? = 2 ] || fail "-jx did not exit 2"
"$HLOLINT" parse --jobs=3 "$tmp/in/m001.txt" || fail "--jobs=3 was not taken"
exit $st
