#!/usr/bin/env bash
# discovery.sh AUTHORITY [CA_FILE]: fetch the authority's OpenID discovery document (as an app's
# own tests would reach the mock the action left running) and check that it names a token
# endpoint under the same origin. Installs curl with apt when it is missing (a debian:12 container).
set -euo pipefail
authority="${1:?usage: discovery.sh AUTHORITY [CA_FILE]}"
ca_file="${2:-}"
if ! command -v curl >/dev/null; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends curl ca-certificates >/dev/null
fi
args=(-fsS --max-time 20)
[ -z "$ca_file" ] || args+=(--cacert "$ca_file")
document="$(curl "${args[@]}" "$authority/v2.0/.well-known/openid-configuration")"
origin="$(sed -E 's#^(https?://[^/]+).*#\1#' <<<"$authority")"
grep -q "\"token_endpoint\":\"$origin/" <<<"$document" || { echo "no token_endpoint under $origin in: $document" >&2; exit 1; }
echo "discovery at $authority: $(head -c 160 <<<"$document")…"
