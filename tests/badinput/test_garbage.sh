#!/bin/sh
# suite: long
# test_garbage.sh - deterministic junk: random bytes (NULs, high bytes,
# control characters), random soups of HLO tokens, and single-byte mutations
# of a valid module.  parse and fmt must exit 0 or 2 (never crash or hang)
# and every exit 2 must start with a located "path:line:col: error:" line.
HLOLINT=${HLOLINT:-build/hlolint}
TESTS_DIR=${TESTS_DIR:-tests}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-garbage.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
runs=0

check() {  # check WHAT FILE
	for cmd in parse fmt; do
		timeout 10 "$HLOLINT" $cmd "$2" >/dev/null 2>"$tmp/err"
		rc=$?
		runs=$((runs + 1))
		if [ "$rc" -eq 2 ]; then
			head -n 1 "$tmp/err" | grep -q "^$2:[0-9]*:[0-9]*: error: " && continue
			echo "FAIL $cmd $1: unlocated error: $(head -n 1 "$tmp/err" | cut -c1-200)"
		elif [ "$rc" -eq 0 ]; then
			continue
		else
			echo "FAIL $cmd $1: exit $rc"
			head -n 3 "$tmp/err" | cut -c1-200
		fi
		fails=$((fails + 1))
		cp "$2" "${TMPDIR:-/tmp}/hlolint-garbage-fail-$fails.hlo"
	done
}

# Random bytes: awk writes octal escapes, printf turns them into bytes.
seed=1
while [ "$seed" -le 20 ]; do
	esc=$(awk -v s="$seed" 'BEGIN { srand(s); for (i = 0; i < 2000; i++) printf "\\0%03o", int(rand() * 256) }')
	printf "%b" "$esc" >"$tmp/bytes.hlo"
	check "random bytes seed $seed" "$tmp/bytes.hlo"
	seed=$((seed + 1))
done

# Token soup: valid tokens in random order.
seed=1
while [ "$seed" -le 150 ]; do
	awk -v s="$seed" 'BEGIN {
		srand(s)
		n = split("HloModule ENTRY ROOT %a %b a: x= { } ( ) [ ] , = : -> <= ... f32[] s32[2]{0} " \
			"(f32[],s32[]) parameter(0) add negate constant( tuple() 1 -2 1.5e3 nan(0x1) -inf " \
			"\"str\" \x27sq\x27 {\"json\":1} 3x3 1_1x2_2 b01f_01io->b01f T(8,128) b( /*c*/ //c\n " \
			"\n sharding={replicated} metadata={op_name=\"x\"} to_apply= calls= #1 ? * SC(0:1) " \
			"backend_config={ frontend_attributes={k={ ENTRY%m{ROOT%r=f32[]constant(1)} // -----\n",
			tok, " ")
		len = 5 + int(rand() * 60)
		for (i = 0; i < len; i++) printf "%s ", tok[1 + int(rand() * n)]
	}' >"$tmp/soup.hlo"
	check "token soup seed $seed" "$tmp/soup.hlo"
	seed=$((seed + 1))
done

# Single-byte mutations of a valid module.
base="$TESTS_DIR/parse/control_flow.hlo"
if [ -f "$base" ]; then
	size=$(wc -c <"$base")
	seed=1
	while [ "$seed" -le 150 ]; do
		set -- $(awk -v s="$seed" -v n="$size" 'BEGIN { srand(s); print int(rand() * n), int(rand() * 18) }')
		off=$1
		ch=$(printf '%s' '(){}[],=%:"#*-<>./' | cut -c $(($2 + 1)))
		{ head -c "$off" "$base"; printf '%s' "$ch"; tail -c +$((off + 2)) "$base"; } >"$tmp/mut.hlo"
		check "mutation seed $seed ('$ch' at $off)" "$tmp/mut.hlo"
		seed=$((seed + 1))
	done
fi

echo "$runs runs, $fails failures"
[ "$fails" -eq 0 ]
