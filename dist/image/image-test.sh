#!/usr/bin/env bash
# ./run.sh image-test: the image `./run.sh image` wrote, proven without a container runtime.
# The OCI archive is unpacked with umoci (as a runtime would: its layer into a root file system,
# its config into a runtime spec); the spec's process (entry point and command, user, working
# folder) is run in that root with chroot, in a network namespace of its own (so its port 8080
# is private, as a container's is) with /proc and /dev mounted; discovery is fetched from
# inside that namespace. Checked too: the layer holds no Swift toolchain, the labels and the
# exposed port. Needs root, umoci, unshare (util-linux), ip (iproute2), curl and python3 (to
# read the spec).
set -euo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=dist/package/clean-root-lib.sh
. dist/package/clean-root-lib.sh
archive="dist/$name-$version-oci.tar"
[ -r "$archive" ] || { echo "error: no $archive: run ./run.sh image first" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "error: the image test needs root (umoci unpack, chroot, namespaces)" >&2; exit 1; }
work="$(mktemp -d /tmp/co-image-test.XXXXXX)"
rootfs="$work/bundle/rootfs"
unmount_all() {
    local point
    for point in "$rootfs/dev" "$rootfs/proc"; do
        if mountpoint -q "$point" 2>/dev/null; then umount "$point" || umount -l "$point"; fi
    done
}
trap 'unmount_all; rm -rf --one-file-system "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

echo "==> unpacking $archive ($(du -h "$archive" | cut -f1))"
mkdir -p "$work/layout"
tar -xf "$archive" -C "$work/layout"
umoci unpack --image "$work/layout:$version" "$work/bundle" >/dev/null
echo "    unpacked: $(du -sh "$rootfs" | cut -f1)"

spec() { python3 -c "import json,sys; s=json.load(open('$work/bundle/config.json')); print($1)"; }
args="$(spec "'\\0'.join(s['process']['args'])" | tr '\0' '\n')"
user="$(spec "f\"{s['process']['user']['uid']}:{s['process']['user']['gid']}\"")"
cwd="$(spec "s['process'].get('cwd', '/')")"
echo "    entry point and command: $(tr '\n' ' ' <<<"$args")(user $user, in $cwd)"

check "the image's process is mockauth serve on 0.0.0.0:8080 as nobody" \
    test "$(tr '\n' ' ' <<<"$args")" = "/usr/bin/mockauth serve --host 0.0.0.0 --port 8080 " -a "$user" = 65534:65534
annotations="$(spec "json.dumps(s['annotations'])")"
declared_ok() {
    grep -qF "\"org.opencontainers.image.version\": \"$version\"" <<<"$annotations" \
        && grep -qF '"org.opencontainers.image.exposedPorts": "8080/tcp"' <<<"$annotations"
}
check "the image declares its version and port 8080" declared_ok
check "the image holds no Swift toolchain" test -z "$(find "$rootfs" -name 'libswiftCore*' -print -quit; ls "$rootfs/usr/bin/swift" 2>/dev/null)"

served_ok() {
    mount -t proc proc "$rootfs/proc"
    mount --bind /dev "$rootfs/dev"
    local status=0
    # shellcheck disable=SC2016 # expanded by the inner shell
    ROOTFS="$rootfs" USERSPEC="$user" CWD="$cwd" ARGS="$args" unshare --net bash -euo pipefail -c '
        ip link set lo up
        mapfile -t argv <<<"$ARGS"
        chroot --userspec="$USERSPEC" "$ROOTFS" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/ \
            sh -c "cd \"\$1\" && shift && exec \"\$@\"" sh "$CWD" "${argv[@]}" >"$ROOTFS/../serve.out" 2>"$ROOTFS/../serve.err" &
        pid=$!
        for _ in $(seq 1 300); do
            grep -qs "^listening on " "$ROOTFS/../serve.out" && break
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.2
        done
        head -1 "$ROOTFS/../serve.out" | sed "s/^/    /"
        status=0
        document="$(curl -fsS --max-time 20 http://127.0.0.1:8080/contoso.com/v2.0/.well-known/openid-configuration)" || status=1
        kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
        [ "$status" -eq 0 ] || { cat "$ROOTFS/../serve.err" >&2; exit 1; }
        echo "    discovery: $(head -c 140 <<<"$document")…"
        grep -q "\"token_endpoint\":\"http://127.0.0.1:8080/" <<<"$document"
    ' || status=$?
    unmount_all
    return "$status"
}
check "its entry point, run in a chroot, serves the demo tenant's discovery" served_ok

finish_checks image
