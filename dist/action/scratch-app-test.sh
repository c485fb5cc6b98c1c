#!/usr/bin/env bash
# ./run.sh package-test, second part: the action's script (dist/action/run.sh, what action.yml
# runs) for a scratch app repository outside this checkout, in a clean Debian root with no Swift
# (mmdebstrap --variant=minbase bookworm), installing the .deb `./run.sh package` left in dist/.
# The app repository is dist/action/scratch-app (Fabrikam Notes: own tenant fixture, Info.plist
# and flows) copied to /srv/fabrikam-notes in the root. Checked: the
# script passes, the time from the clean root to the first passing flow, its outputs (the mock
# keeps serving discovery for the app's own tests), the JUnit report (junitparser, pinned, from
# PyPI into .build: one testcase per flow, no failure), and a misspelt fixture key refused with
# exit 65 naming it. Needs root. BOOKWORM_MIRROR overrides the Debian mirror.
set -euo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=dist/package/clean-root-lib.sh
. dist/package/clean-root-lib.sh
deb="$(package_deb)"
junitparser="junitparser==5.0.3"
venv=.build/junitparser-venv
if ! "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('junitparser') != '${junitparser#*==}')" 2>/dev/null; then
    python3 -m venv --clear "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "$junitparser"
fi
make_root
app=/srv/fabrikam-notes
action=/opt/compliance-action

# The app's repository, and the action as a runner checks it out (its scripts, nothing built).
mkdir -p "$root$app" "$root$action/dist"
cp -R dist/action/scratch-app/. "$root$app/"
cp -R dist/action "$root$action/dist/"
cp "$deb" "$root/tmp/"

echo "==> the action's script for $app (clean root: no Swift, no package)"
start_ns=$(date +%s%N)
status=0
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    CO_DEB="/tmp/$(basename "$deb")" CO_FIXTURE=compliance/tenant.json CO_APP=App/Info.plist CO_FLOWS=compliance/flows \
    CO_TLS=true CO_JUNIT=reports/compliance-junit.xml CO_WORK=/tmp/action GITHUB_OUTPUT=/tmp/github-output \
    sh -c "cd $app && exec $action/dist/action/run.sh" 2>&1 \
    | while IFS= read -r line; do printf '%s %s\n' "$((($(date +%s%N) - start_ns) / 1000000))" "$line"; done >"$root/tmp/action.log" \
    || status=$?
mock_pid="$(sed -n 's/^mock-pid=//p' "$root/tmp/github-output" 2>/dev/null || true)"
[ -z "$mock_pid" ] || started_pids+=("$mock_pid")
sed 's/^[0-9]* //' "$root/tmp/action.log" | grep -E '^(compliance-action|[✔✘]|[0-9]+ of)' || true

first_pass_ok() {
    local ms
    ms="$(grep -m1 -E '^[0-9]+ ✔ ' "$root/tmp/action.log" | cut -d' ' -f1)"
    [ -n "$ms" ] || { tail -30 "$root/tmp/action.log" >&2; return 1; }
    echo "    first flow passed $((ms / 1000)).$(printf '%03d' $((ms % 1000))) s after the script started in the clean root"
}
check "the action's script passed for $app (exit $status)" test "$status" -eq 0
check "a flow passed, timed from the clean root" first_pass_ok
check "every flow passed" grep -qE ' 2 of 2 flows passed$' "$root/tmp/action.log"

outputs_ok() {
    local authority ca_file
    authority="$(sed -n 's/^authority=//p' "$root/tmp/github-output")"
    ca_file="$(sed -n 's/^ca-file=//p' "$root/tmp/github-output")"
    [[ "$authority" =~ ^https://127\.0\.0\.1:[0-9]+/fabrikam\.example$ ]] || { echo "    authority: '$authority'" >&2; return 1; }
    [ "$ca_file" = /tmp/action/tls/cert.pem ] || { echo "    ca-file: '$ca_file'" >&2; return 1; }
    dist/action/discovery.sh "$authority" "$root$ca_file"
}
check "its outputs name the mock, which keeps serving for the app's own tests" outputs_ok

junit_ok() {
    local report="$root$app/reports/compliance-junit.xml"
    "$venv/bin/python" - "$report" <<'PY'
import sys
from junitparser import JUnitXml
xml = JUnitXml.fromfile(sys.argv[1])
cases = [case for suite in xml for case in suite]
names = sorted(case.classname for case in cases)
print(f"    junitparser: {xml.tests} tests, {xml.failures} failures, {xml.errors} errors; {names}")
assert names == ["compliance.flows.erin-remediated", "compliance.flows.frank-untargeted"], names
assert xml.tests == 2 and xml.failures == 0 and xml.errors == 0
assert all(case.is_passed and case.time > 0 for case in cases)
PY
}
check "the JUnit report parses with junitparser, one testcase per flow" junit_ok

misspelt_ok() {
    local out status=0
    sed 's/"caTargeted": true/"caTargetted": true/' "$root$app/compliance/tenant.json" >"$root/tmp/misspelt.json"
    out="$(in_root mockauth check /tmp/misspelt.json 2>&1)" || status=$?
    echo "    exit $status: $out"
    [ "$status" -eq 65 ] && grep -qF "\$.users[0].caTargetted: unknown key 'caTargetted' (closest known: 'caTargeted';" <<<"$out"
}
check "a misspelt fixture key is refused (65), naming it and the closest known key" misspelt_ok

finish_checks scratch-app
