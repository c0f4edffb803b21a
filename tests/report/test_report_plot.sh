#!/bin/sh
# test_report_plot.sh - the memory picture of `report` (issue 46), checked
# in its SVG and, when chromium is there, rendered:
#  - a step plot: a short program (corpora/xla scan_offload/oom, 143 steps,
#    drawn as a comb of needles before) has its arguments, live all along,
#    at the same height in every column (no fall to zero between steps);
#  - device memory in #plot, pinned host memory (scan_offload/offloaded) in
#    its own panel #host, never on the device axis;
#  - tooltips (titles) on the curve's bands and on every buffer (size,
#    shape, kind, live steps, op_name), each buffer a link to its line in
#    the listing, also when the module is too large to list whole;
#  - landmarks: while loops, collectives and the backward pass on gpt;
#  - without a capacity the header says so (#nocap) and no capacity line is
#    drawn; with one, the line and no #nocap;
#  - round ticks (powers of two of bytes: 256.00M, 512.00M, 1.00G);
#  - in headless chromium: no console errors, screenshots of a small and a
#    large program.
. tests/lib.sh
small=corpora/xla/out/scan_offload/oom/tpu-v5e
hosted=corpora/xla/out/scan_offload/offloaded/tpu-v5e
large=corpora/xla/out/gpt/oom/tpu-v5e
"$HLOLINT" report --no-config "$small" -o "$tmp/small.html" || fail "report small: exit $?"
"$HLOLINT" report --no-config "$hosted" -o "$tmp/hosted.html" || fail "report hosted: exit $?"
steps=$(grep -o 'steps [0-9]*-[0-9]*:' "$tmp/small.html" | tail -n 1 | sed 's/steps [0-9]*-\([0-9]*\):/\1/')
[ "$steps" -ge 100 ] && [ "$steps" -le 200 ] || fail "small: $steps steps, not about 150"
"$HLOLINT" report --no-config --target tpu-v5e "$large" -o "$tmp/large.html" || fail "report large: exit $?"

# The arguments' area (the first device path): its top edge never falls.
args_top() {
	sed -n 's/.*<path class="area device" fill="#4e79a7"[^>]* d="M[0-9]*,[0-9]*\([^"]*\)".*/\1/p' "$1" | head -n 1 |
		tr ' ' '\n' | sed -n 's/^L[0-9]*,\([0-9.]*\)$/\1/p' | head -n 1920 | sort -u
}
[ "$(args_top "$tmp/small.html" | wc -l)" = 1 ] || fail "small: the arguments' top edge is not flat: $(args_top "$tmp/small.html" | head -n 3 | tr '\n' ' ')"
grep -q 'id="host"' "$tmp/hosted.html" || fail "hosted: no pinned host panel"
sed -n '/<svg id="plot"/,/<\/svg>/p' "$tmp/hosted.html" | grep -q 'class="area host"' && fail "hosted: host memory on the device axis"
grep -q 'id="nocap"' "$tmp/small.html" || fail "small: no capacity and the header does not say so"
grep -q 'id="capacity"' "$tmp/small.html" && fail "small: a capacity line without a capacity"
grep -q 'id="nocap"' "$tmp/large.html" && fail "large: says no capacity with --target"
grep -q 'id="capacity"' "$tmp/large.html" || fail "large: no capacity line"
for p in small large; do
	f=$tmp/$p.html
	grep -q '<rect class="band"[^>]*><title>steps [0-9]*-[0-9]*: .* on the device (arguments' "$f" ||
		fail "$p: no tooltip on the curve"
	n=$(grep -c '<rect class="buffer"' "$f")
	t=$(grep -c '<rect class="buffer"[^>]*><title>[0-9.]*[BKMGT]* [a-z0-9]*\[.*(\(argument\|output\|temp\|constant\|while-carried\|host\)), live over steps [0-9]*-[0-9]*, %' "$f")
	[ "$n" -ge 5 ] && [ "$t" = "$n" ] || fail "$p: $t of $n buffers have their tooltip"
	for l in $(grep -o '<a href="#L[0-9]*"><rect class="buffer"' "$f" | sed 's/<a href="#L\([0-9]*\)".*/\1/'); do
		grep -q "<span id=\"L$l\">" "$f" || fail "$p: a buffer links to line $l, which the listing lacks"
	done
	grep -o 'text-anchor="end">[0-9.]*[BKMGT]<' "$f" | sed 's/.*">//; s/<//' | grep -v -E '^(0B|[0-9]+\.(00|25|50|75)[BKMGT])$' |
		head -n 3 >"$tmp/ticks"
	[ -s "$tmp/ticks" ] && fail "$p: ticks not round: $(tr '\n' ' ' <"$tmp/ticks")"
done
grep -q 'op_name ' "$tmp/large.html" || fail "large: no op_name in the buffers' tooltips"
grep -q '<rect class="loop"' "$tmp/large.html" || fail "large: no loop landmark"
grep -q '<line class="collective"' "$tmp/large.html" || fail "large: no collective landmark"
grep -q 'id="backward"' "$tmp/large.html" || fail "large: no backward-pass landmark"

# A module too large to list whole: the buffers' lines are listed all the same.
gzip -dc "$large/after_optimizations.hlo.gz" >"$tmp/one.hlo"
e=$(grep -n '^ENTRY ' "$tmp/one.hlo" | cut -d: -f1)
c=$(grep -n '^%' "$tmp/one.hlo" | head -n 1 | cut -d: -f1)
{ sed -n "1,$((e - 1))p" "$tmp/one.hlo"
  for i in 1 2 3 4 5 6 7; do sed -n "$c,$((e - 1))p" "$tmp/one.hlo" | sed "s/%\([A-Za-z_][A-Za-z0-9_.-]*\)/%\1.c$i/g"; done
  sed -n "$e,\$p" "$tmp/one.hlo"; } >"$tmp/big.hlo"
[ "$(wc -c <"$tmp/big.hlo")" -gt 4194304 ] || fail "the large module is only $(wc -c <"$tmp/big.hlo") bytes"
"$HLOLINT" report --no-config --target tpu-v5e "$tmp/big.hlo" -o "$tmp/big.html" || fail "report big: exit $?"
grep -q 'it is large' "$tmp/big.html" || fail "big: listed whole"
for l in $(grep -o '<a href="#L[0-9]*"><rect class="buffer"' "$tmp/big.html" | sed 's/<a href="#L\([0-9]*\)".*/\1/'); do
	grep -q "<span id=\"L$l\">" "$tmp/big.html" || fail "big: a buffer links to line $l, not listed"
done

chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
	echo "skip (browser part): chromium is not installed (make browser-deps installs it)"
	exit $st
fi
flags="--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --user-data-dir=$tmp/profile"
for p in small large; do
	# shellcheck disable=SC2086
	timeout 120 "$chrome" $flags --enable-logging=stderr --v=0 --window-size=1280,900 \
		--screenshot="$tmp/$p.png" "file://$tmp/$p.html" >/dev/null 2>"$tmp/$p.err" || fail "$p: chromium failed"
	grep -qi 'CONSOLE.*\(error\|uncaught\)' "$tmp/$p.err" && fail "$p: console errors: $(grep -i console "$tmp/$p.err")"
	[ -f "$tmp/$p.png" ] && [ "$(wc -c <"$tmp/$p.png")" -gt 20000 ] || fail "$p: no screenshot, or an empty one"
done
exit $st
