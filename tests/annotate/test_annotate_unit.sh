#!/bin/sh
# test_annotate_unit.sh - builds tests/annotate/annotate_unit.c against the
# library next to $HLOLINT (build/libhlolint.a, made by `make check`) and
# runs it: the rewrite buffer, comment placement, --apply edits and the diff
# with hand-made findings.  Skips (77) when the library or a C compiler is
# missing.
. tests/lib.sh
dir=$(dirname "$HLOLINT")
lib=$dir/libhlolint.a
CC=${CC:-cc}
if [ ! -f "$lib" ]; then
	echo "skip: $lib not built (make check builds it)"
	exit 77
fi
if ! command -v "$CC" >/dev/null 2>&1; then
	echo "skip: no C compiler ($CC)"
	exit 77
fi
flags="-std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g"
# The sanitizer build's library needs the sanitizer runtime at link time.
case $dir in
*san*) flags="$flags -fsanitize=address,undefined -fno-sanitize-recover=all" ;;
esac
# shellcheck disable=SC2086  # flags are split on purpose
if ! $CC $flags $(src_includes) -I"$dir/grammar" -o "$tmp/annotate_unit" tests/annotate/annotate_unit.c "$lib" -lz -lm \
	2>"$tmp/cc.err"; then
	cat "$tmp/cc.err"
	echo "FAIL annotate_unit does not build"
	exit 1
fi
"$tmp/annotate_unit"
