#!/bin/sh
# test_fidelity.sh - hlolint against what the real compiler said about our
# own programs (corpora/xla, written by `make corpus-xla`; no JAX needed):
#   - every stored module (compiled.hlo.gz, after_optimizations.hlo.gz) parses
#     and verifies;
#   - arguments, outputs and aliased bytes equal compiled.memory_analysis();
#   - every value of XLA's buffer assignment that hlolint also lists (same
#     instruction and shape) has the same size;
#   - hlolint's total allocation against XLA's: the sum of the buffer
#     assignment's device allocations where the dump has one, else
#     memory_analysis() (arguments + outputs - aliased + temporaries, the
#     same sum on CPU and GPU); the error may not grow past its pin in
#     fidelity.pins, and at least 90% of the modules are within 1%;
#   - for the programs that do not fit, the compiler's "required" figure
#     against hlolint's total, pinned the same way;
#   - host memory (S(5)) equal to memory_analysis()'s host arguments +
#     outputs - aliased + temporaries wherever either has some.
# Prints the fidelity table.  UPDATE=1 rewrites the pins (review the diff).
. tests/lib.sh
X=corpora/xla
PINS=tests/xla/fidelity.pins
[ -f "$X/MANIFEST.tsv" ] || { echo "no $X/MANIFEST.tsv"; exit 1; }

# One JSON number of hlolint's module object / of memory_analysis.json.
# 100 * (a - b) / b with one decimal.
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "0.0"; else printf "%+.1f", 100 * (a - b) / b }'; }
human() { awk -v b="$1" 'BEGIN { u = "BKMGT"; i = 1; while (b >= 1024 && i < 5) { b /= 1024; i++ }
	printf (i == 1 ? "%d%s" : "%.2f%s"), b, substr(u, i, 1) }'; }

: >"$tmp/pins.new"
nmod=0 nbuf=0 nbufbad=0 exact=0 ncompiled=0 noom=0 within1=0 within10=0 ntotal=0 nhost=0 hostok=0
printf '%-34s %-8s %9s %9s %7s %7s %s\n' module target "XLA" hlolint error pinned "args/out/alias"
# shellcheck disable=SC2034  # the MANIFEST columns read but not used
while IFS='	' read -r prog case target kind status dir args outs alias temp code hargs houts halias htemp hcode \
	xpeak expect about; do
	[ "$prog" = program ] && continue
	name=$prog/$case
	d=$X/$dir
	for m in "$d/compiled.hlo.gz" "$d/after_optimizations.hlo.gz"; do
		[ -f "$m" ] || continue
		nmod=$((nmod + 1))
		"$HLOLINT" parse "$m" >"$tmp/out" 2>"$tmp/err" || fail "$m does not parse: $(head -n 1 "$tmp/err")"
	done
	if [ "$status" = oom ] && ! grep -q "required for HLO temporaries" "$d/error.txt"; then
		# A kernel's scoped VMEM (oom_kinds/vmem_block): no program total to compare.
		echo "$name/$target: $(cut -c 1-60 "$d/error.txt" | head -n 1)...: no HBM total"
		continue
	elif [ "$status" = oom ]; then
		# "... required for HLO temporaries (30.31G) exceeds available HBM (15.75G)."
		need=$(sed -n 's/.*required for HLO temporaries (\([0-9.]*[KMGT]\)).*/\1/p' "$d/error.txt" | head -n 1)
		[ -n "$need" ] || { fail "$name/$target: no required figure in error.txt"; continue; }
		"$HLOLINT" mem --format json --target "$target" "$d/after_optimizations.hlo.gz" >"$tmp/j" 2>"$tmp/err" ||
			{ fail "$name/$target: mem failed: $(head -n 1 "$tmp/err")"; continue; }
		# XLA:TPU stops before placing the heap: its figure is the
		# values' liveness peak, without the heap's fragmentation.
		peak=$(jnum total_live_bytes "$tmp/j")
		xb=$(echo "$need" | awk '{ v = $0 + 0; u = substr($0, length($0)); m = 1
			if (u == "K") m = 1024; if (u == "M") m = 1048576; if (u == "G") m = 1073741824
			if (u == "T") m = 1099511627776; printf "%.0f", v * m }')
		err=$(pct "$peak" "$xb")
		cmp_what="oom required"
		noom=$((noom + 1))
	else
		"$HLOLINT" mem --format json --top 0 --target "$target" "$d/compiled.hlo.gz" >"$tmp/j" 2>"$tmp/err" ||
			{ fail "$name/$target: mem failed: $(head -n 1 "$tmp/err")"; continue; }
		peak=$(jnum total_bytes "$tmp/j")
		ncompiled=$((ncompiled + 1))
		ours="$(jnum argument_bytes "$tmp/j") $(jnum output_bytes "$tmp/j") $(jnum alias_bytes "$tmp/j")"
		if [ "$ours" = "$args $outs $alias" ]; then
			cmp_what="exact"
			exact=$((exact + 1))
		else
			cmp_what="DIFFER"
			fail "$name/$target: arguments/outputs/aliased $ours, XLA $args $outs $alias"
		fi
		# Host memory (S(5)) counted once: memory_analysis()'s host
		# arguments + outputs - aliased + temporaries.
		xh=$((hargs + houts - halias + htemp))
		if [ "$xh" != 0 ] || [ "$(jnum host_bytes "$tmp/j")" != 0 ]; then
			nhost=$((nhost + 1))
			if [ "$(jnum host_bytes "$tmp/j")" = "$xh" ]; then
				hostok=$((hostok + 1))
			else
				fail "$name/$target: host memory $(jnum host_bytes "$tmp/j"), XLA $xh"
			fi
		fi
		xb=$((args + outs - alias + temp))
		# The buffer assignment's own total: device allocations (no
		# "color N").  libtpu's memory_analysis() adds temporaries the
		# assignment does not list (docs/fidelity.md).
		if [ -f "$d/buffer-assignment.txt.gz" ]; then
			xb=$(gzip -dc "$d/buffer-assignment.txt.gz" |
				awk '/^allocation [0-9]*: size [0-9]*/ && !/, color [0-9]/ { t += $4 } END { printf "%.0f", t }')
		fi
		err=$(pct "$peak" "$xb")
		# Per-buffer sizes: XLA's values against hlolint's buffers.
		if [ -f "$d/buffer-assignment.txt.gz" ]; then
			sed -n 's/^ *"instruction": "\(.*\)",$/I\1/p; s/^ *"shape": "\(.*\)",$/S\1/p;
				s/^ *"bytes": \([0-9]*\),$/B\1/p' "$tmp/j" >"$tmp/ours"
			gzip -dc "$d/buffer-assignment.txt.gz" |
				sed -n 's/^ value: <[0-9]* \([^ {>]*\)[^>]*> (size=\([0-9]*\),offset=[0-9]*): \(.*\)$/\1 \2 \3/p' \
				>"$tmp/xla"
			awk 'NR == FNR { c = substr($0, 1, 1); v = substr($0, 2)
					if (c == "I") i = v; else if (c == "S") s = v; else have[i " " s] = have[i " " s] " " v " "
					next }
				{ key = $1 " " substr($0, length($1) + length($2) + 3)
				  if (key in have) { n++; if (index(have[key], " " $2 " ") == 0) { bad++
					if (bad <= 3) print "  size " $1 " " $2 " (XLA) vs" have[key] > "/dev/stderr" } } }
				END { print n + 0, bad + 0 }' "$tmp/ours" "$tmp/xla" >"$tmp/cnt" 2>"$tmp/badlist"
			read -r n bad <"$tmp/cnt"
			nbuf=$((nbuf + n))
			nbufbad=$((nbufbad + bad))
			[ "$bad" -eq 0 ] || { fail "$name/$target: $bad of $n buffer sizes differ from XLA's"; cat "$tmp/badlist"; }
		fi
	fi
	ntotal=$((ntotal + 1))
	a=${err#[+-]}
	awk -v e="$a" 'BEGIN { exit !(e <= 1) }' && within1=$((within1 + 1))
	awk -v e="$a" 'BEGIN { exit !(e <= 10) }' && within10=$((within10 + 1))
	pin=$(awk -v k="$name/$target" '$1 == k { print $2 }' "$PINS" 2>/dev/null)
	echo "$name/$target $err" >>"$tmp/pins.new"
	printf '%-34s %-8s %9s %9s %6s%% %6s%% %s\n' "$name" "$target" "$(human "$xb")" "$(human "$peak")" \
		"$err" "${pin:-none}" "$cmp_what"
	if [ -z "$UPDATE" ]; then
		if [ -z "$pin" ]; then
			fail "$name/$target: no pin in $PINS (run UPDATE=1 $0)"
		elif ! awk -v e="$a" -v p="${pin#[+-]}" 'BEGIN { exit !(e <= p + 0.05) }'; then
			fail "$name/$target: peak error $err% is worse than its pin $pin%"
		fi
	fi
done <"$X/MANIFEST.tsv"
[ -n "$UPDATE" ] && cp "$tmp/pins.new" "$PINS" && echo "pins written to $PINS"
echo "$nmod modules parsed; $exact of $ncompiled with exact arguments/outputs/aliased;" \
	"$((nbuf - nbufbad)) of $nbuf buffer sizes exact;" \
	"total allocation within 1% of XLA on $within1, within 10% on $within10 of $ntotal"
echo "$noom out-of-memory reports: the compiler's required figure against hlolint's total (pinned above)"
echo "host memory (S(5)) equal to memory_analysis()'s on $hostok of $nhost modules that have any"
[ $((within1 * 10)) -ge $((ntotal * 9)) ] || fail "only $within1 of $ntotal totals within 1% of XLA (want 90%)"
[ "$nmod" -ge 40 ] || fail "only $nmod stored modules (want >= 40)"
[ "$noom" -ge 5 ] || fail "only $noom out-of-memory reports (want >= 5)"
[ "$nbuf" -ge 1000 ] || fail "only $nbuf buffer sizes compared (want >= 1000)"
exit $st
