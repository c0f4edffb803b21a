#!/bin/sh
# test_every_command.sh - every bad input of issue 8 through every command
# (parse, fmt, mem text/json, check in every format with a TPU and a GPU
# target, annotate plain/--apply/--diff): exit 2, never a crash or sanitizer
# report, a located "path:line:col: error:" first line on stderr, and no
# module text on stdout.  Binary inputs (an ELF file, a serialized
# HloModuleProto, an HloProto, random bytes, a gzipped ELF) get exactly one
# stderr line saying what they are and never print raw bytes.
. tests/lib.sh
n=0

# Text inputs that must be rejected (the crashers and overflows of issue 8).
for f in tests/robust/slice_trailing_colon.hlo tests/robust/slice_start_colon.hlo \
	tests/robust/shape_bytes_overflow.hlo tests/robust/shape_bytes_overflow_max.hlo \
	tests/robust/tile_overflow.hlo; do
	cp "$f" "$tmp/"
done
# Binary inputs, made here.
cp "$(command -v sh)" "$tmp/elf.bin"
gzip -c "$tmp/elf.bin" >"$tmp/elf.bin.gz"
# HloModuleProto: field 1 name "jit_f", field 2 entry_computation_name "main".
printf '\n\005jit_f\022\004main\032\002\n\000' >"$tmp/module.pb"
# HloProto: field 1 holds the HloModuleProto above.
printf '\n\023\n\005jit_f\022\004main\032\002\n\000' >"$tmp/hloproto.pb"
awk 'BEGIN { srand(8); for (i = 0; i < 3000; i++) printf "%c", int(rand() * 256) }' >"$tmp/random.bin"

check_one() {   # FILE ARGS...
	f=$1
	shift
	n=$((n + 1))
	"$HLOLINT" "$@" "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	what="$* $(basename "$f")"
	if [ "$rc" -gt 128 ] || grep -aqE 'Sanitizer|runtime error:' "$tmp/err"; then
		fail "$what: crashed (exit $rc)"
		head -n 5 "$tmp/err"
		return
	fi
	[ "$rc" -eq 2 ] || fail "$what: exit $rc (want 2)"
	head -n 1 "$tmp/err" | grep -q "^$f:[0-9][0-9]*:[0-9][0-9]*: error: " ||
		fail "$what: first stderr line is not a located error: $(head -n 1 "$tmp/err" | cut -c1-120)"
	grep -q '^HloModule\|^ENTRY' "$tmp/out" && fail "$what: partial module output on stdout"
	case $f in
	*.bin | *.gz | *.pb)
		[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$what: $(wc -l <"$tmp/err") stderr lines (want 1)"
		grep -q ': error: binary file' "$tmp/err" || fail "$what: not called a binary file"
		# No raw control bytes reach the terminal.
		LC_ALL=C grep -q '[[:cntrl:]]' "$tmp/err" && fail "$what: control bytes on stderr"
		case $f in *.pb) grep -q 'HloModuleProto' "$tmp/err" || fail "$what: not named a proto" ;; esac
		;;
	esac
}

for f in "$tmp"/*.hlo "$tmp"/*.bin "$tmp"/*.gz "$tmp"/*.pb; do
	check_one "$f" parse
	check_one "$f" fmt
	check_one "$f" mem
	check_one "$f" mem --format json --target tpu-v5e
	for t in tpu-v5e h100; do
		for fmt in text json sarif github; do
			check_one "$f" check --no-config --target "$t" --format "$fmt"
		done
	done
	check_one "$f" annotate --no-config --target tpu-v5e
	check_one "$f" annotate --no-config --target tpu-v5e --apply
	check_one "$f" annotate --no-config --target h100 --apply --diff
done
echo "$n runs"
[ "$n" -ge 100 ] || fail "only $n runs"
exit $st
