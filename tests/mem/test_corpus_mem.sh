#!/bin/sh
# test_corpus_mem.sh - `mem` over every real module in ../shared/corpora
# (skipped when absent), with sanity checks on its JSON output:
#   - every file is analysed (exit 0)
#   - per module: peak >= the largest HBM buffer, and peak <= the sum of all
#     HBM buffers (--top 0 lists them all; memory_space 0 = HBM)
#   - per file: host bytes > 0 exactly when "S(5)" appears in the file or a
#     pre-optimization offload asks for host memory (a MoveToHost custom
#     call, or annotate_device_placement to pinned_host/unpinned_host)
HLOLINT=${HLOLINT:-build/hlolint}
CORPORA=${CORPORA:-../shared/corpora}
LC_ALL=C
export LC_ALL
if [ ! -d "$CORPORA/real" ]; then
	echo "corpora not found at $CORPORA/real: skipped"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-mem.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
files=0
bad=0
for f in "$CORPORA"/real/*/*.hlo; do
	[ -f "$f" ] || continue
	files=$((files + 1))
	name=${f#"$CORPORA"/}
	if ! timeout 60 "$HLOLINT" mem --format json --top 0 "$f" >"$tmp/out" 2>"$tmp/err"; then
		echo "FAIL $name: exit $?: $(grep -m1 'error' "$tmp/err" | cut -c1-160)"
		bad=$((bad + 1))
		continue
	fi
	# One line per module: "peak max sum host"; pretty JSON has one key a line.
	awk '
	function flush() { if (seen) print peak, max, sum, host; seen = 0; peak = max = sum = host = 0 }
	/^      "path":/ { flush(); seen = 1 }
	/^      "peak_bytes":/ { v = $2; sub(/,/, "", v); peak = v + 0 }
	/^      "host_bytes":/ { v = $2; sub(/,/, "", v); host = v + 0 }
	/^ *"bytes":/ { v = $2; sub(/,/, "", v); last = v + 0 }
	/^ *"memory_space":/ { v = $2; sub(/,/, "", v); if (v + 0 == 0) { sum += last; if (last > max) max = last } }
	END { flush() }' "$tmp/out" >"$tmp/mods"
	if [ ! -s "$tmp/mods" ]; then
		echo "FAIL $name: no module in the JSON output"
		bad=$((bad + 1))
		continue
	fi
	msg=$(awk '
	$1 < $2 { print "peak " $1 " < largest buffer " $2; exit }
	$1 > $3 { print "peak " $1 " > sum of buffers " $3; exit }' "$tmp/mods")
	if [ -n "$msg" ]; then
		echo "FAIL $name: $msg"
		bad=$((bad + 1))
		continue
	fi
	host=$(awk '{ h += $4 } END { print (h > 0) ? "yes" : "no" }' "$tmp/mods")
	if grep -q 'S(5)\|"MoveToHost"\|_xla_buffer_placement="[a-z]*_host"' "$f"; then want=yes; else want=no; fi
	if [ "$host" != "$want" ]; then
		echo "FAIL $name: host bytes > 0 is $host, but S(5) or an offload to host in the file is $want"
		bad=$((bad + 1))
	fi
done
echo "mem over $files real modules: $((files - bad)) sane, $bad failed"
[ "$bad" -eq 0 ]
