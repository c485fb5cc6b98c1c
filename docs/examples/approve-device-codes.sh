#!/usr/bin/env bash
# approve-device-codes.sh MOCK_URL UPN OUTPUT PID [CA_FILE]: a person approving device codes, scripted.
# `compliancectl sign-in UPN --device-code` (running as PID, its stdout going to the file OUTPUT)
# prints a code each time the issuer needs the person: once to sign in and, for a user targeted
# by app-protection CA, once more for the MAM service's token after the 53005. This approves each
# new code through mockauth's admin API (POST /_admin/device-codes/CODE/approve {"upn": UPN})
# until the sign-in ends; give the sign-in a --timeout so a code nobody approves cannot hang the
# script. An https mock with a self-signed certificate (mockauth --tls-self-signed DIR) needs
# CA_FILE (DIR/cert.pem), or CURL_CA_BUNDLE set to it. Exit 0 once the sign-in has ended; its
# own exit status is for the caller's `wait PID`; 1 when a code cannot be approved.
set -euo pipefail
url="${1:?usage: approve-device-codes.sh MOCK_URL UPN OUTPUT PID [CA_FILE]}"
upn="${2:?UPN}"
output="${3:?OUTPUT}"
pid="${4:?PID}"
ca_args=()
if [ -n "${5:-}" ]; then ca_args=(--cacert "$5"); fi
# The UPN as a JSON string (quotes and backslashes escaped).
upn_json="$(printf '%s' "$upn" | sed 's/\\/\\\\/g; s/"/\\"/g')"
approved=" "
while kill -0 "$pid" 2>/dev/null; do
    while read -r code; do
        case "$approved" in *" $code "*) continue ;; esac
        if ! curl -fsS "${ca_args[@]}" -X POST -H 'Content-Type: application/json' -d "{\"upn\": \"$upn_json\"}" \
            "$url/_admin/device-codes/$code/approve" >/dev/null; then
            echo "approve-device-codes.sh: cannot approve device code $code at $url" >&2
            exit 1
        fi
        approved="$approved$code "
        echo "approved device code $code for $upn"
    done < <(sed -n 's/.*enter the code \([A-Za-z0-9-]*\).*/\1/p' "$output" 2>/dev/null)
    sleep 0.2
done
