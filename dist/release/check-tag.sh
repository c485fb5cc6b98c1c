#!/usr/bin/env bash
# check-tag.sh TAG: the release tag (v0.5.0) names the version the tree builds
# (ProgramVersion.current), so the release's files carry the tag's version.
set -euo pipefail
cd "$(dirname "$0")/../.."
tag="${1:?usage: check-tag.sh TAG (e.g. v0.5.0)}"
version="$(sed -n 's/.*static let current = "\([^"]*\)".*/\1/p' Sources/ProgramSupport/ProgramVersion.swift)"
[ "$tag" = "v$version" ] || { echo "error: tag $tag, but the tree is version $version (Sources/ProgramSupport/ProgramVersion.swift): tag v$version" >&2; exit 1; }
echo "tag $tag: version $version"
