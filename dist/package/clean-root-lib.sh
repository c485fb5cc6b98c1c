# shellcheck shell=bash
# Sourced by the clean-root tests (clean-root-test.sh, dist/action/scratch-app-test.sh,
# dist/image/image-test.sh): a minimal bookworm root made with mmdebstrap, the checks' counting,
# and a cleanup that stops what the test started, unmounts what it mounted and removes the root,
# on success, failure or a signal. The sourcing script sets `set -euo pipefail` and calls
# `make_root`; it adds pids to stop to `started_pids`. BOOKWORM_MIRROR overrides the mirror.

name=compliance-orchestrator
version="$(sed -n 's/.*static let current = "\([^"]*\)".*/\1/p' Sources/ProgramSupport/ProgramVersion.swift)"
mirror="${BOOKWORM_MIRROR:-http://deb.debian.org/debian}"
root=""
started_pids=()
passed=0
failed=0

# The .deb `./run.sh package` left in dist/ for this version.
package_deb() {
    local deb
    for deb in dist/"${name}_${version}"-*_amd64.deb; do break; done
    [ -e "$deb" ] || { echo "error: no dist/${name}_${version}-*_amd64.deb: run ./run.sh package first" >&2; exit 1; }
    echo "$deb"
}

cleanup() {
    local status=$?
    local pid
    for pid in "${started_pids[@]}"; do
        if kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    if [ -n "$root" ]; then
        # Only what this script mounted, innermost first; the root is removed only once unmounted.
        local mounted=1 point
        for point in "$root/dev/pts" "$root/proc"; do
            if mountpoint -q "$point" 2>/dev/null; then umount "$point" || umount -l "$point" || mounted=0; fi
        done
        if [ "$mounted" -eq 1 ]; then
            rm -rf --one-file-system "$root"
        else
            echo "warning: could not unmount under $root; left in place" >&2
        fi
    fi
    exit "$status"
}

check() {  # check NAME COMMAND...: run it, count it, say which
    local what="$1"
    shift
    if "$@"; then
        echo "ok: $what"
        passed=$((passed + 1))
    else
        echo "FAILED: $what" >&2
        failed=$((failed + 1))
    fi
}

in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

# make_root: a minimal bookworm root in a new /tmp folder (as $root), with
# /proc and a private /dev/pts mounted; the traps clean it up.
make_root() {
    [ "$(id -u)" -eq 0 ] || { echo "error: a clean-root test needs root (mmdebstrap, chroot, mount)" >&2; exit 1; }
    trap cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM HUP
    root="$(mktemp -d /tmp/co-clean-root.XXXXXX)"
    echo "==> a minimal bookworm root in $root (mmdebstrap --variant=minbase)"
    local start
    start=$(date +%s)
    mmdebstrap --quiet --variant=minbase --skip=cleanup/apt/lists bookworm "$root" \
        "deb $mirror bookworm main" "deb $mirror bookworm-updates main" "deb ${mirror%/debian}/debian-security bookworm-security main"
    echo "    made in $(($(date +%s) - start)) s"
    mount -t proc proc "$root/proc"
    mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts"
}

# The closing lines: the counts, and the exit status.
finish_checks() {
    echo "$1: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
