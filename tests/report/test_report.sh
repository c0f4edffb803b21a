#!/bin/sh
# test_report.sh - `hlolint report` on a real compile that does not fit
# (corpora/xla gpt/oom on tpu-v5e): a self-contained HTML page (no script,
# nothing fetched), whose plot names the peak `mem` reports and whose
# buffer rows start with the largest buffer `mem` lists; then, in a real
# browser (Debian's chromium, headless): the page renders with no console
# errors, its DOM shows the peak and the top buffer's name, and a
# screenshot is taken (a PNG of the page's size).  The browser part is
# skipped, saying so, when chromium is absent (`make browser-deps`
# installs it; .ci/run does).
. tests/lib.sh
dir=corpora/xla/out/gpt/oom/tpu-v5e
page=$tmp/report.html
"$HLOLINT" report --no-config --target tpu-v5e "$dir" -o "$page" 2>"$tmp/err" ||
	{ fail "report: exit $?"; cat "$tmp/err"; exit 1; }
head -n 1 "$page" | grep -q '^<!DOCTYPE html>' || fail "not an HTML page"
grep -qi '<script\|<link\|src="http\|href="http\|url(http\|@import' "$page" && fail "the page fetches or runs something"

"$HLOLINT" mem --verbose --target tpu-v5e "$dir" >"$tmp/mem" 2>&1 || fail "mem: exit $?"
peak=$(sed -n 's/^Liveness peak [^ ]* \([^ ]*\).*/\1/p' "$tmp/mem" | head -n 1)
top=$(sed -n 's/^ *XLA label: \([A-Za-z0-9_.-]*\) = .*/\1/p' "$tmp/mem" | head -n 1)
[ -n "$peak" ] && [ -n "$top" ] || { fail "could not read mem's peak ('$peak') or top buffer ('$top')"; cat "$tmp/mem"; }
grep -q "id=\"peak\"[^>]*>peak $peak<" "$page" || fail "the plot does not mark the peak $peak"
first=$(grep -o 'class="bufname"[^>]*>%[^ ]*' "$page" | head -n 1 | sed 's/.*>%//')
[ "$first" = "$top" ] || fail "the first buffer row is %$first, mem's largest is %$top"

chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
	echo "skip (browser part): chromium is not installed (make browser-deps installs it)"
	exit $st
fi
flags="--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --user-data-dir=$tmp/profile"
# shellcheck disable=SC2086
timeout 120 "$chrome" $flags --enable-logging=stderr --v=0 --dump-dom "file://$page" >"$tmp/dom.html" 2>"$tmp/chrome.err" ||
	{ fail "chromium could not render the page"; tail -n 5 "$tmp/chrome.err"; }
grep -qi 'CONSOLE.*\(error\|uncaught\)' "$tmp/chrome.err" && { fail "console errors:"; grep -i console "$tmp/chrome.err"; }
grep -q ">peak $peak<" "$tmp/dom.html" || fail "the rendered DOM does not show the peak $peak"
grep -q ">%$top " "$tmp/dom.html" || fail "the rendered DOM does not show the top buffer %$top"
# shellcheck disable=SC2086
timeout 120 "$chrome" $flags --window-size=1280,1400 --screenshot="$tmp/shot.png" "file://$page" \
	>/dev/null 2>>"$tmp/chrome.err" || fail "chromium could not take a screenshot"
if [ -f "$tmp/shot.png" ]; then
	sig=$(od -An -c -N 4 "$tmp/shot.png" | tr -d ' ')
	[ "$sig" = '211PNG' ] || fail "the screenshot is not a PNG ($sig)"
	w=$(od -An -tu1 -j 16 -N 4 "$tmp/shot.png" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
	[ "$w" = 1280 ] || fail "the screenshot is $w pixels wide, expected 1280"
	size=$(wc -c <"$tmp/shot.png")
	[ "$size" -gt 20000 ] || fail "the screenshot is nearly empty ($size bytes)"
else
	fail "no screenshot"
fi
exit $st
