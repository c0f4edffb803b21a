#!/bin/sh
# test_severity_impact.sh - missed-donation and offload-candidate speak by
# impact (issue 46, pass_saving_severity): a warning when the module's total
# allocation is within 10% of the device's memory or over it
# (--donation-warn-fraction / --offload-warn-fraction, 90%), or when the
# saving is at least 5% of it (--donation-warn-saving /
# --offload-warn-saving); a note otherwise, and always a note without a
# capacity.  The train step's total is 524M (549453836 bytes), each donation saves 128M; the
# early weight's total is 1.41G, its offload saves 64M.
. tests/lib.sh
md=tests/rules/missed-donation/fires_train_step.hlo
oc=tests/rules/offload-candidate/fires_early_weight.hlo

sev() {  # sev WANT RULE FILE OPTIONS...: every finding of RULE has severity WANT
	want=$1 rule=$2 file=$3
	shift 3
	"$HLOLINT" check --no-config --format json --select "$rule" "$@" "$file" >"$tmp/o.json" 2>"$tmp/e"
	rc=$?
	got=$(sed -n 's/^ *"severity": "\([a-z]*\)",$/\1/p' "$tmp/o.json" | sort -u | tr '\n' ' ')
	[ "$got" = "$want " ] || fail "$rule $*: severities '$got', want '$want' (exit $rc; $(head -c 200 "$tmp/e"))"
	case $want in
	warning) [ $rc = 1 ] || fail "$rule $*: a warning exits $rc" ;;
	note) [ $rc = 0 ] || fail "$rule $*: a note exits $rc" ;;
	esac
}
sev note missed-donation $md
sev note missed-donation $md --hbm 100G
sev warning missed-donation $md --hbm 600M
sev warning missed-donation $md --hbm 2G
sev note missed-donation $md --hbm 4G
sev warning missed-donation $md --hbm 4G --donation-warn-saving 3%
sev warning missed-donation $md --hbm 100G --donation-warn-fraction 0
sev note missed-donation $md --hbm 600M --donation-warn-fraction 95% --donation-warn-saving 50%
# The total decides here: it is read after the model's packing thread is
# done (mem_settle; ThreadSanitizer found it read while being written).
sev warning missed-donation $md --hbm 560M --donation-warn-saving 50%
sev warning missed-donation $md --hbm 560M --donation-warn-saving 50% -j 2
sev note missed-donation $md --hbm 600M --donation-warn-saving 50%

sev note offload-candidate $oc --hbm 10G --offload-min-fraction 0
sev warning offload-candidate $oc --hbm 1G --offload-min-fraction 0
sev warning offload-candidate $oc --hbm 1450M --offload-min-fraction 0
sev warning offload-candidate $oc --hbm 10G --offload-min-fraction 0 --offload-warn-saving 0.5%
exit $st
