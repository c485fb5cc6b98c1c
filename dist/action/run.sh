#!/usr/bin/env bash
# The composite action's one step (action.yml at the repository root): install the Compliance
# Orchestrator package, check the app's tenant fixture, start mockauth with it (left running for
# the job's later steps), run the app's flows against it with a JUnit report, and hand the mock's
# URL and CA file to later steps. Runs the same outside GitHub (dist/action/scratch-app-test.sh
# runs it in a clean Debian root), reading its inputs from the environment:
#   CO_DEB         a .deb to install (a path, or a folder holding one), instead of a release
#   CO_VERSION     the release to download (e.g. 0.9.0 or v0.9.0); default: the action's own ref
#   CO_REPOSITORY  the repository whose releases hold the package (default: the action's own)
#   CO_FIXTURE     the tenant fixture (JSON; mocks/README.md); checked first (mockauth check)
#   CO_APP         the app's Info.plist, for flows that name no "app"
#   CO_FLOWS       flow files or directories, separated by spaces or new lines
#   CO_TLS         true: https with a self-signed certificate (its file is the ca-file output)
#   CO_JUNIT       where the JUnit XML report goes (its folder is made when missing)
#   CO_WORK        where the mock's files go (default: RUNNER_TEMP or a new folder in /tmp)
# Outputs (to $GITHUB_OUTPUT when set, and to $GITHUB_ENV as MOCKAUTH_URL, MOCKAUTH_CA_FILE,
# MOCKAUTH_AUTHORITY; always printed): mock-url, authority, ca-file, junit, mock-pid.
# Exit status: compliancectl run's (0 every flow passed, 1 a flow failed, 65 an invalid flow
# file or fixture), or 1 when the package cannot be installed or mockauth does not start;
# 143 or 130 when stopped by SIGTERM or SIGINT, which also stop the run and mockauth.
set -euo pipefail

say() { echo "compliance-action: $*"; }
fail() { echo "compliance-action: error: $*" >&2; exit 1; }

# What the script started, ended when it is stopped (a cancelled job): nothing outlives it then.
children=()
# shellcheck disable=SC2317 # called from the traps
stop_children() { for pid in "${children[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done; }
trap 'stop_children; exit 143' TERM
trap 'stop_children; exit 130' INT

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
apt_get() { $sudo env DEBIAN_FRONTEND=noninteractive apt-get "$@"; }

fixture="${CO_FIXTURE:?set the fixture input: the tenant fixture of the app (JSON)}"
flows="${CO_FLOWS:?set the flows input: the flow files or folders of the app}"
[ -r "$fixture" ] || fail "cannot read the fixture '$fixture'"
[ -z "${CO_APP:-}" ] || [ -r "$CO_APP" ] || fail "cannot read the app profile '$CO_APP'"
tls="$(tr '[:upper:]' '[:lower:]' <<<"${CO_TLS:-false}")"
case "$tls" in true | false) ;; *) fail "tls must be true or false, not '${CO_TLS}'" ;; esac
work="${CO_WORK:-}"
[ -n "$work" ] || work="$(mktemp -d "${RUNNER_TEMP:-/tmp}/compliance-action.XXXXXX")"
mkdir -p "$work"
junit="${CO_JUNIT:-compliance-junit.xml}"
# A fresh checkout has no reports/ folder (git keeps no empty folder): make the report's.
mkdir -p "$(dirname "$junit")" || fail "cannot make the folder of the JUnit report '$junit'"

# The release's .deb and SHA256SUMS, checked, when no .deb is given. Its one line of stdout
# is the .deb's path: everything else it says goes to stderr.
download() {
    local version="${CO_VERSION:-${CO_ACTION_REF:-}}"
    version="${version#v}"
    [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]] || fail "no package: set the deb input (a .deb path) or version (a release such as 0.9.0); the action's ref '${CO_ACTION_REF:-}' names none"
    local repository="${CO_REPOSITORY:?set the repository input (OWNER/NAME) that publishes the releases}"
    local base="https://github.com/$repository/releases/download/v$version"
    local file="compliance-orchestrator_${version}-1_amd64.deb"
    command -v curl >/dev/null || { apt_get update -qq && apt_get install -y -qq --no-install-recommends curl ca-certificates; } >&2
    say "downloading $base/$file" >&2
    curl -fsSL --retry 3 -o "$work/$file" "$base/$file" || fail "cannot download $base/$file: is v$version a release of $repository?"
    curl -fsSL --retry 3 -o "$work/SHA256SUMS" "$base/SHA256SUMS" || fail "cannot download $base/SHA256SUMS"
    (cd "$work" && sha256sum -c --ignore-missing --strict SHA256SUMS) >&2 || fail "$file does not match the release's SHA256SUMS"
    echo "$work/$file"
}

deb="${CO_DEB:-}"
if [ -z "$deb" ]; then deb="$(download)"; fi
if [ -d "$deb" ]; then  # a folder (a downloaded artifact): its one .deb
    debs=("$deb"/*.deb)
    if [ "${#debs[@]}" -ne 1 ] || [ ! -e "${debs[0]}" ]; then fail "the folder '$deb' must hold exactly one .deb"; fi
    deb="${debs[0]}"
fi
[ -r "$deb" ] || fail "cannot read the package '$deb'"
case "$deb" in /*) ;; *) deb="$PWD/$deb" ;; esac
say "installing $(basename "$deb")"
apt_get update -qq
apt_get install -y -qq --no-install-recommends "$deb" >"$work/install.log" 2>&1 || { cat "$work/install.log" >&2; fail "apt-get could not install $deb"; }

# The fixture first: a misspelt key is named here (exit 65), not found later as a missing 53005.
checked="$(mockauth check "$fixture")" || exit $?
say "$checked"
tenant="$(sed -n 's/.*: ok: tenant \([^ ]*\) (.*/\1/p' <<<"$checked")"
[ -n "$tenant" ] || fail "mockauth check named no tenant: $checked"

tls_args=()
ca_file=""
if [ "$tls" = true ]; then
    tls_args=(--tls-self-signed "$work/tls")
    ca_file="$work/tls/cert.pem"
fi
# Left running for the job's later steps (the app's own tests); the runner ends it with the job.
setsid mockauth serve --port 0 --fixtures "$fixture" "${tls_args[@]}" >"$work/mockauth.out" 2>"$work/mockauth.log" </dev/null &
mock_pid=$!
children+=("$mock_pid")
url=""
for _ in $(seq 1 300); do
    url="$(sed -n 's/^listening on //p' "$work/mockauth.out" | head -1)"
    [ -n "$url" ] && break
    kill -0 "$mock_pid" 2>/dev/null || { cat "$work/mockauth.log" >&2; fail "mockauth did not start"; }
    sleep 0.1
done
[ -n "$url" ] || { kill "$mock_pid"; fail "mockauth did not say where it listens within 30 s"; }
authority="$url/$tenant"
say "mockauth at $url (pid $mock_pid), authority $authority"

outputs() {
    echo "mock-url=$url"
    echo "authority=$authority"
    echo "ca-file=$ca_file"
    echo "junit=$junit"
    echo "mock-pid=$mock_pid"
}
outputs
[ -z "${GITHUB_OUTPUT:-}" ] || outputs >>"$GITHUB_OUTPUT"
[ -z "${GITHUB_ENV:-}" ] || printf 'MOCKAUTH_URL=%s\nMOCKAUTH_AUTHORITY=%s\nMOCKAUTH_CA_FILE=%s\n' "$url" "$authority" "$ca_file" >>"$GITHUB_ENV"

run_args=(--authority "$authority" --junit "$junit")
[ -z "$ca_file" ] || run_args+=(--ca-file "$ca_file")
[ -z "${CO_APP:-}" ] || run_args+=(--app "$CO_APP")
status=0
# In the background, so that a SIGTERM or SIGINT to this script reaches the run at once.
# shellcheck disable=SC2086 # the flows input is a list of paths, split on white space
compliancectl run $flows "${run_args[@]}" &
run_pid=$!
children+=("$run_pid")
wait "$run_pid" || status=$?
if [ -s "$junit" ]; then say "JUnit report: $junit"; else say "no JUnit report was written ($junit)"; fi
exit "$status"
