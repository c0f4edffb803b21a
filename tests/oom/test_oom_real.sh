#!/bin/sh
# test_oom_real.sh - `hlolint oom` on out-of-memory text users posted
# publicly (tests/oom/real: sources.json, cut into logs/ by cut.py).  Every
# log must be read (exit 1), give the reports EXPECT.tsv lists (kind/class
# each, in log order), each with a deciding fact and fixes, and print what
# expected/NAME.txt holds (UPDATE=1 rewrites those).  logs/ must be what
# cut.py cuts from sources.json (checked when python3 is here).
. tests/lib.sh
r=tests/oom/real
if command -v python3 >/dev/null 2>&1; then
	python3 "$r/cut.py" --check || fail "logs/ or PROVENANCE.tsv differ from what cut.py makes"
else
	echo "note: no python3: logs/ not compared with cut.py's output"
fi
for log in "$r"/logs/*.log; do
	name=$(basename "$log" .log)
	grep -q "^$name	" "$r/EXPECT.tsv" || fail "$name: not in EXPECT.tsv"
done
n=0
while IFS='	' read -r name want; do
	case $name in '' | '#'*) continue ;; esac
	n=$((n + 1))
	log=$r/logs/$name.log
	"$HLOLINT" oom --no-config --format json "$log" >"$tmp/j" 2>"$tmp/e"
	rc=$?
	if [ "$rc" != 1 ] || [ -s "$tmp/e" ]; then
		fail "$name: exit $rc, expected 1 and no error"
		head -n 3 "$tmp/e"
		continue
	fi
	got=$(awk -F'"' '/^      "kind": /{k=$4} /^      "class": /{printf "%s%s/%s", sep, k, $4; sep=","}' "$tmp/j")
	[ "$got" = "$want" ] || fail "$name: read as '$got', expected '$want'"
	! grep -q '^      "fact": ""' "$tmp/j" || fail "$name: a report without its deciding fact"
	! grep -q '^      "fixes": \[\]' "$tmp/j" || fail "$name: a report without fixes"
	"$HLOLINT" oom --no-config "$log" >"$tmp/t" 2>"$tmp/e"
	rc=$?
	[ "$rc" = 1 ] || fail "$name: text exit $rc"
	if [ -n "$UPDATE" ]; then
		cp "$tmp/t" "$r/expected/$name.txt"
	elif ! cmp -s "$tmp/t" "$r/expected/$name.txt"; then
		fail "$name: text output differs from expected/$name.txt"
		diff "$r/expected/$name.txt" "$tmp/t" | head -n 10
	fi
done <"$r/EXPECT.tsv"
[ "$n" -ge 48 ] || fail "EXPECT.tsv lists $n logs, expected at least 48"
echo "$n real logs read"
exit $st
