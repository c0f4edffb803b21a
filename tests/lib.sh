# lib.sh - what shell tests share, sourced as `. tests/lib.sh` from the
# project root (run.sh runs them there): LC_ALL=C, $HLOLINT, a scratch
# directory $tmp removed on exit, and fail(), which prints and sets $st
# (the test ends with `exit $st`).  Not a test itself.
LC_ALL=C
export LC_ALL
HLOLINT=${HLOLINT:-build/hlolint}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-test.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
st=0
fail() {
	echo "FAIL: $*"
	st=1
}
