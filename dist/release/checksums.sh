#!/usr/bin/env bash
# checksums.sh: dist/SHA256SUMS over the release's files (the .deb, the tarball, the OCI image
# archive) of the tree's version; the action checks a downloaded .deb against it.
set -euo pipefail
cd "$(dirname "$0")/../.."
name=compliance-orchestrator
version="$(sed -n 's/.*static let current = "\([^"]*\)".*/\1/p' Sources/ProgramSupport/ProgramVersion.swift)"
files=("${name}_${version}-1_amd64.deb" "$name-$version-linux-amd64.tar.gz" "$name-$version-oci.tar")
cd dist
for file in "${files[@]}"; do [ -r "$file" ] || { echo "error: no dist/$file" >&2; exit 1; }; done
sha256sum "${files[@]}" >SHA256SUMS
cat SHA256SUMS
