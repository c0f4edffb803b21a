#!/bin/sh
# test_config_discovery.sh - .hlolint.toml is found upward from the working
# directory, up to the directory holding .git (a config above the project
# root is not used); --config overrides it and --no-config ignores it;
# command-line options override the file.
LC_ALL=C
export LC_ALL
HLOLINT=${HLOLINT:-build/hlolint}
case $HLOLINT in /*) ;; *) HLOLINT=$(pwd)/$HLOLINT ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlolint-config.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$tmp/outer/proj/.git" "$tmp/outer/proj/sub/dir"
sed -n '/^HloModule/,$p' tests/check/fail_on_error.hlo >"$tmp/outer/proj/sub/dir/m.hlo"
# Above the project root: would turn the rule off if it were read.
printf 'ignore = ["host-transfer"]\n' >"$tmp/outer/.hlolint.toml"

cd "$tmp/outer/proj/sub/dir" || exit 2
"$HLOLINT" check m.hlo >out
[ $? -eq 1 ] || fail "no project config: the warning fails ($(tail -n 1 out))"

printf '# project config\nfail-on = "error"\n' >"$tmp/outer/proj/.hlolint.toml"
"$HLOLINT" check m.hlo >out
[ $? -eq 0 ] || fail "discovered config (fail-on error) not applied"
"$HLOLINT" check --fail-on warning m.hlo >out
[ $? -eq 1 ] || fail "command line should override the config"
"$HLOLINT" check --no-config m.hlo >out
[ $? -eq 1 ] || fail "--no-config should ignore the config"
"$HLOLINT" check --config "$tmp/outer/.hlolint.toml" m.hlo >out
[ $? -eq 0 ] || fail "--config FILE should be used"
grep -q '0 warnings' out || fail "--config ignore not applied"

# A broken discovered config is exit 2 with a located error.
printf 'fail-on = error\n' >"$tmp/outer/proj/.hlolint.toml"
"$HLOLINT" check m.hlo >out 2>err
[ $? -eq 2 ] || fail "bad config should exit 2"
grep -q '\.hlolint\.toml:1:11: error: strings need quotes' err || fail "config error not located: $(cat err)"

# select on the command line replaces the file's ignore.
printf 'ignore = ["host-transfer"]\n' >"$tmp/outer/proj/.hlolint.toml"
"$HLOLINT" check --select host-transfer m.hlo >out
[ $? -eq 1 ] || fail "--select should replace the file's ignore"
exit 0
