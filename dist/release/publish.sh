#!/usr/bin/env bash
# publish.sh TAG: the release job's last step. Creates the GitHub release TAG with the .deb, the
# tarball, the OCI image archive and SHA256SUMS (gh, with GH_TOKEN), then copies the image to the
# GitHub Container Registry as ghcr.io/OWNER/mockauth:VERSION and :latest with skopeo (no daemon;
# REGISTRY_USER and GH_TOKEN as credentials). GITHUB_REPOSITORY names OWNER/NAME. Not run here:
# neither GitHub nor ghcr.io is reachable from the machines this was written on.
set -euo pipefail
cd "$(dirname "$0")/../.."
tag="${1:?usage: publish.sh TAG}"
: "${GH_TOKEN:?GH_TOKEN: a token that may write releases and packages}"
: "${GITHUB_REPOSITORY:?GITHUB_REPOSITORY: OWNER/NAME}"
name=compliance-orchestrator
version="${tag#v}"
files=("dist/${name}_${version}-1_amd64.deb" "dist/$name-$version-linux-amd64.tar.gz" "dist/$name-$version-oci.tar" dist/SHA256SUMS)
(cd dist && sha256sum -c --strict SHA256SUMS)
gh release create "$tag" "${files[@]}" --repo "$GITHUB_REPOSITORY" --title "$name $version" --verify-tag \
    --notes "Debian 12 package, tarball and OCI image (mockauth) of $name $version; install and use: docs/testing-your-app.md."
command -v skopeo >/dev/null || { sudo apt-get update -qq && sudo apt-get install -y -qq skopeo; }
owner="${GITHUB_REPOSITORY%%/*}"
image="ghcr.io/${owner,,}/mockauth"
for tag_name in "$version" latest; do
    skopeo copy --dest-creds "${REGISTRY_USER:-$owner}:$GH_TOKEN" "oci-archive:dist/$name-$version-oci.tar:$version" "docker://$image:$tag_name"
done
echo "published $tag: release files and $image:$version"
