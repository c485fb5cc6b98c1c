#!/usr/bin/env bash
# ./run.sh image: an OCI image of mockauth without a container runtime or daemon. A minimal
# Debian 12 root from mmdebstrap (--variant=minbase, documentation, man pages and locales left
# out as debian:bookworm-slim does), the .deb `./run.sh package` left in dist/ installed in it
# with apt, made one layer with umoci. Entry point `mockauth serve --host 0.0.0.0` with
# `--port 8080` as its command (the packaged demo tenant; give other arguments to override the
# command), run as nobody (65534). Written as an OCI layout archive (skopeo's `oci-archive:`):
#   dist/compliance-orchestrator-VERSION-oci.tar   (tag VERSION)
# Proven by dist/image/image-test.sh (./run.sh image-test). Needs root, mmdebstrap and umoci.
set -euo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=dist/package/clean-root-lib.sh
. dist/package/clean-root-lib.sh
deb="$(package_deb)"
[ "$(id -u)" -eq 0 ] || { echo "error: building the image needs root (mmdebstrap, umoci unpack/repack)" >&2; exit 1; }
archive="dist/$name-$version-oci.tar"
work="$(mktemp -d /tmp/co-image.XXXXXX)"
trap 'rm -rf --one-file-system "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

echo "==> a slim bookworm root with $(basename "$deb") (mmdebstrap --variant=minbase)"
start=$(date +%s)
mmdebstrap --quiet --variant=minbase \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-include=/usr/share/locale/locale.alias' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/info/*' \
    --hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount \
    --include="$PWD/$deb" \
    bookworm "$work/rootfs" \
    "deb $mirror bookworm main" "deb $mirror bookworm-updates main" "deb ${mirror%/debian}/debian-security bookworm-security main"
echo "    made in $(($(date +%s) - start)) s: $(du -sh "$work/rootfs" | cut -f1)"

echo "==> OCI image $name:$version (umoci)"
layout="$work/layout"
umoci init --layout "$layout"
umoci new --image "$layout:$version"
umoci unpack --image "$layout:$version" "$work/bundle"
cp -a "$work/rootfs/." "$work/bundle/rootfs/"
umoci repack --image "$layout:$version" "$work/bundle"
created="$(date -u -d "@$(git log -1 --format=%ct -- Sources/ProgramSupport/ProgramVersion.swift 2>/dev/null || date +%s)" +%Y-%m-%dT%H:%M:%SZ)"
umoci config --image "$layout:$version" --os linux --architecture amd64 --created "$created" \
    --config.entrypoint /usr/bin/mockauth --config.entrypoint serve --config.entrypoint --host --config.entrypoint 0.0.0.0 \
    --config.cmd --port --config.cmd 8080 --config.exposedports 8080/tcp --config.user 65534:65534 --config.workingdir / \
    --config.label "org.opencontainers.image.title=mockauth" \
    --config.label "org.opencontainers.image.description=Mock Entra ID issuer and Intune MAM service (the Compliance Orchestrator's), demo tenant contoso.com" \
    --config.label "org.opencontainers.image.version=$version" \
    --config.label "org.opencontainers.image.licenses=MIT"
umoci gc --layout "$layout"
rm -f "$archive"
tar --sort=name --mtime="$created" --owner=0 --group=0 --numeric-owner -C "$layout" -cf "$archive" .
echo "==> $archive: $(du -h "$archive" | cut -f1) (the layer, gzip), $(du -sh "$work/rootfs" | cut -f1) unpacked"
