#!/usr/bin/env bash
# One entry point for people and CI:
#   ./run.sh demo    build, then run every flow in flows/ against the embedded mocks
#   ./run.sh test    build and run every test
#   ./run.sh test-stress  the test command beside stress-ng keeping both cores busy (not in CI)
#   ./run.sh bench   build in release and run the benchmarks (./run.sh bench json: one of them)
#   ./run.sh dist    regenerate dist/: man pages and shell completions of the three programs
#   ./run.sh package build the Debian package and the tarball into dist/ (release, static Swift)
#   ./run.sh package-test  install that package in a clean Debian root and run it there, then the
#                    action's script for a scratch app repository in another (root)
#   ./run.sh image   the OCI image of mockauth from that package (mmdebstrap, umoci; root)
#   ./run.sh image-test  unpack that image and serve discovery from its entry point in a chroot
#   ./run.sh lint    actionlint over every workflow file, shellcheck over the scripts in dist/
#   ./run.sh setup   only install the system packages the build needs
set -euo pipefail
cd "$(dirname "$0")"

# Debian packages the build and the tests need: the C libraries the product is built on
# (libcurl, jansson), SQLite for the daemon's store, pkg-config to find them, and python3-venv
# for the MSAL Python conformance tests.
APT_PACKAGES=(pkg-config libcurl4-openssl-dev libjansson-dev libsqlite3-dev python3-venv)

setup() {
    local missing=()
    for package in "${APT_PACKAGES[@]}" "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "==> installing Debian packages: ${missing[*]}"
        local sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
    if ! command -v swift >/dev/null; then
        echo "error: swift is not on PATH; install Swift 6.1 or later (see README.md)" >&2
        exit 1
    fi
}

# Runs every test with TMPDIR a scratch folder of this run's own (short: unix socket paths live
# under it), which is removed afterwards. Folders of earlier runs whose owner is gone (a test
# process killed with SIGKILL leaves its state directories behind; its children end with it,
# see Sources/ChildProcess/Keeper.swift) are removed first.
run_tests() {
    local base="${TMPDIR:-/tmp}" folder owner
    for folder in "$base"/ctest.*; do
        [ -f "$folder/.owner" ] || continue
        owner="$(cat "$folder/.owner" 2>/dev/null || true)"
        [[ "$owner" =~ ^[0-9]+\ [0-9]+$ ]] || continue  # not an owner this function wrote
        if [ "$owner" != "$(process_identity "${owner%% *}")" ]; then rm -rf "$folder"; fi
    done
    folder="$(mktemp -d "$base/ctest.XXXXXX")"
    chmod 0711 "$folder"  # as /tmp lets other users reach what a test opens to them (PeerAccessTests)
    process_identity $$ >"$folder/.owner.new" && mv "$folder/.owner.new" "$folder/.owner"  # whole, or not there
    local status=0
    TMPDIR="$folder" swift test --skip-build || status=$?
    rm -rf "$folder"
    return "$status"
}

# "PID START": a process and its start time (field 22 of /proc/PID/stat), which a reused pid
# does not share; empty when the process is gone.
process_identity() {
    local stat
    stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 0
    stat="${stat##*) }"
    echo "$1 $(echo "$stat" | cut -d' ' -f20)"
}

case "${1:-}" in
    setup)
        setup
        ;;
    demo)
        setup
        echo "==> building"
        swift build
        bin="$(swift build --show-bin-path)"
        echo "==> running every flow in flows/ (compliancectl → complianced → mockauth)"
        "$bin/compliancectl" run flows/
        ;;
    test)
        # The tests drive mockauth with curl, run mocks/README.md's curl walkthrough (jq), and sign
        # in as a person in a real headless browser (Debian's chromium and its driver, from
        # python3-selenium under /usr/bin/python3).
        setup curl jq chromium chromium-driver python3-selenium
        echo "==> building"
        started=$SECONDS
        swift build --build-tests
        echo "==> built in $((SECONDS - started)) s; testing"
        started=$SECONDS
        status=0
        run_tests || status=$?
        echo "==> tested in $((SECONDS - started)) s"
        exit "$status"
        ;;
    test-stress)
        # The test command while stress-ng keeps both cores busy (niced: STRESS_NICE, default 10),
        # as on a shared CI runner. Not part of CI: run it after a change to timing, processes or
        # servers (README.md, "Testing").
        setup curl jq chromium chromium-driver python3-selenium stress-ng
        echo "==> building"
        swift build --build-tests
        echo "==> testing beside stress-ng --cpu 2 (nice ${STRESS_NICE:-10})"
        nice -n "${STRESS_NICE:-10}" stress-ng --cpu 2 --timeout 7200s --quiet &
        stress=$!
        trap 'kill "$stress" 2>/dev/null; wait "$stress" 2>/dev/null' EXIT
        run_tests
        ;;
    bench)
        # ./run.sh bench [NAME…] [options]: every benchmark, or the named ones (http, issuance,
        # remediation, silent-token, footprint, scaling, json); see Sources/compliance-bench/BENCHMARKS.md.
        setup wrk  # the load generator of the issuance benchmark
        shift
        swift build -c release --product complianced  # started as a child by silent-token and footprint
        swift run -c release compliance-bench "$@"
        ;;
    dist)
        # Man pages (swift-argument-parser's generate-manual plugin) and completion scripts
        # (--generate-completion-script) into dist/; dist/systemd/ is written by hand. The pages
        # are dated by the last change of the version, so they change only with the programs.
        setup
        date="$(git log -1 --format=%cs -- Sources/ProgramSupport/ProgramVersion.swift 2>/dev/null || true)"
        [ -n "$date" ] || date="$(date +%Y-%m-%d)"
        swift package generate-manual --configuration debug --date "$date" --authors "Compliance Orchestrator developers"
        bin="$(swift build --show-bin-path)"
        mkdir -p dist/man/man1 dist/completions/bash dist/completions/zsh dist/completions/fish
        for program in complianced compliancectl mockauth; do
            cp ".build/plugins/GenerateManual/outputs/$program/$program.1" dist/man/man1/
            dist/man/tidy.sh "dist/man/man1/$program.1"   # no mdoc warnings, no generated help subcommand
            "$bin/$program" --generate-completion-script bash >"dist/completions/bash/$program"
            "$bin/$program" --generate-completion-script zsh >"dist/completions/zsh/_$program"
            "$bin/$program" --generate-completion-script fish >"dist/completions/fish/$program.fish"
        done
        echo "==> dist/man/man1, dist/completions/{bash,zsh,fish}, dist/systemd"
        ;;
    package)
        # dpkg-deb and dpkg-shlibdeps (dpkg-dev), strip (binutils), lintian; see dist/package/.
        setup dpkg-dev binutils lintian
        dist/package/build.sh
        ;;
    package-test)
        # A minimal bookworm root (mmdebstrap), curl to fetch mockauth's discovery document from
        # outside it, systemd-analyze (systemd) to verify its installed units.
        setup mmdebstrap curl systemd
        dist/package/clean-root-test.sh
        dist/action/scratch-app-test.sh
        ;;
    image)
        # A daemonless OCI image: mmdebstrap's root with the package, one layer by umoci.
        setup mmdebstrap umoci
        dist/image/build.sh
        ;;
    image-test)
        # umoci to unpack it, unshare and ip for the entry point's own network, curl to fetch.
        setup umoci util-linux iproute2 curl
        dist/image/image-test.sh
        ;;
    lint)
        setup shellcheck
        dist/ci/lint.sh
        ;;
    *)
        echo "usage: ./run.sh demo|test|test-stress|bench|dist|package|package-test|image|image-test|lint|setup" >&2
        exit 64
        ;;
esac
