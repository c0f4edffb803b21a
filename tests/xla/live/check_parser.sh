#!/bin/sh
# check_parser.sh - every `hlolint fmt` output (default, long and short
# styles) of every module stored in corpora/xla goes through XLA's own HLO
# text parser (jaxlib's hlo_module_from_text) and must be accepted.
# Run by `make check-xla` with XLA_PY set to the corpus environment's python.
. tests/lib.sh
n=0
for m in corpora/xla/out/*/*/*/compiled.hlo.gz corpora/xla/out/*/*/*/after_optimizations.hlo.gz; do
	[ -f "$m" ] || continue
	for style in default long short; do
		n=$((n + 1))
		"$HLOLINT" fmt --style="$style" "$m" >"$tmp/$n.hlo" 2>"$tmp/err" ||
			{ echo "FAIL: hlolint fmt --style=$style $m: $(head -n 1 "$tmp/err")"; exit 1; }
		echo "$m --style=$style" >"$tmp/$n.name"
	done
done
"$XLA_PY" corpora/xla/xla_check.py parse "$tmp"/*.hlo >"$tmp/result" 2>"$tmp/err"
ok=$(grep -c '^ok ' "$tmp/result")
grep '^error ' "$tmp/result" | while read -r _ f msg; do
	echo "FAIL: XLA rejects fmt of $(cat "${f%:}".name 2>/dev/null || echo "$f"): $msg"
done
echo "XLA's parser accepted $ok of $n fmt outputs ($(ls corpora/xla/out/*/*/*/*.hlo.gz | wc -l) modules x 3 styles)"
[ "$n" -ge 120 ] && [ "$ok" -eq "$n" ]
