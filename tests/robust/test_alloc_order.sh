#!/bin/sh
# test_alloc_order.sh - the total allocation tries temporaries largest
# first (src/model/alloc.c): a size at a time in the table's order when
# there are few sizes and each is in order already, else after a sort.
# On every module the compiler wrote for corpora/xla (and the third-party
# corpus when present), `mem --format json` prints byte for byte the same
# both ways (HLO_ALLOC_SORT=1 always sorts), and both orders ran on
# modules with temporaries to place (HLO_ALLOC_TRACE).
. tests/lib.sh

n=0
for f in corpora/xla/out/*/*/*/after_optimizations.hlo.gz; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	gzip -dc "$f" >"$tmp/m$n.hlo" || fail "$f: cannot decompress"
done
[ "$n" -gt 100 ] || fail "only $n compiler outputs under corpora/xla/out"
set -- "$tmp"/m*.hlo
if [ -d ../shared/corpora/real ]; then
	set -- "$@" ../shared/corpora/real/*/*.hlo
else
	echo "note: ../shared/corpora/real is absent: the compiler's modules only"
fi

# mem ENV OUT FILE...: `mem --format json FILE...` under the environment
# assignment ENV ("" for none) into OUT, its exit status in $rc; a crash
# fails.
mem() {
	_env=$1 _out=$2
	shift 2
	# shellcheck disable=SC2086  # ENV is split on purpose
	env $_env "$HLOLINT" mem --format json --target tpu-v5e "$@" >"$_out" 2>"$_out.err"
	rc=$?
	[ "$rc" -le 2 ] || fail "mem ${_env:+under $_env }on $# modules: exit $rc"
}
mem HLO_ALLOC_TRACE=1 "$tmp/in_order.json" "$@"
rc1=$rc
mem HLO_ALLOC_SORT=1 "$tmp/sorted.json" "$@"
[ "$rc" = "$rc1" ] || fail "HLO_ALLOC_SORT=1: exit $rc, $rc1 without"
cmp -s "$tmp/in_order.json" "$tmp/sorted.json" ||
	fail "HLO_ALLOC_SORT=1 changes mem's output: $(diff "$tmp/in_order.json" "$tmp/sorted.json" | sed -n 2p)"
grep -q '"total_bytes": [1-9]' "$tmp/in_order.json" || fail "no module has a total allocation"

# Both orders ran, unforced, on packings with temporaries to place.
for order in "a size at a time" "sorted"; do
	grep -q "^hlolint: alloc: [1-9][0-9]* temporaries, $order\$" "$tmp/in_order.json.err" ||
		fail "no packing took the order \"$order\""
done
exit $st
