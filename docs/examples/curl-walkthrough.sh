#!/usr/bin/env bash
# mockauth from the command line (bash, curl, jq, openssl): script conditional access, the MAM
# service, allowed accounts, a wipe and a fault through the admin API, and check an access token
# as a resource server does (signature against the JWKS, iss, aud, exp, xms_cc).
#
# Usage: curl-walkthrough.sh BASE_URL [CA_CERT_PEM]
# BASE_URL is mockauth's `listening on` URL; CA_CERT_PEM is DIR/cert.pem for `--tls-self-signed
# DIR`. It resets mockauth first, prints `ok   STEP` per check and exits 1 at the first
# unexpected answer, printing what was expected and what came. The demo tenant's names below;
# change them for your own fixtures.
set -euo pipefail
URL=${1:?usage: curl-walkthrough.sh BASE_URL [CA_CERT_PEM]}
CACERT=${2:-}
# AUDIENCE: the API's application ID, the access token's aud (as at Entra: not the api:// URI)
TENANT=contoso.com CLIENT=chatr SCOPE=api://contoso-chat/Chat.Read AUDIENCE=c4a7e2d9-5b1f-4e3a-9c8d-7f2b6a1e3d5c
USER_UPN=bob@contoso.com PASSWORD='Passw0rd!'
MAM_SCOPE=https://msmamservice.api.application/.default
PROTAPP='{"access_token":{"xms_cc":{"values":["protapp"]}}}'
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

c() { curl -sS --max-time 20 ${CACERT:+--cacert "$CACERT"} "$@"; }
admin() { c -X "$1" "$URL/_admin/$2" -H 'Content-Type: application/json' -d "${3:-{\}}"; }
mam() { c "$URL/mam/v1/$1" -H "Authorization: Bearer $MAM" -H 'Content-Type: application/json' -d "$2"; }

# check STEP EXPECTED ACTUAL: two JSON texts, equal once keys are sorted.
check() {
  local want got
  want=$(jq -cS . <<<"$2")
  got=$(jq -cS . <<<"$3" 2>/dev/null) || got=$3
  if [ "$want" != "$got" ]; then
    printf 'FAIL %s\n  expected: %s\n  got:      %s\n' "$1" "$want" "$got" >&2
    exit 1
  fi
  printf 'ok   %s\n' "$1"
}

# token [CLAIMS] [SCOPE]: a password grant for the user; prints {"http": STATUS, "body": ANSWER}.
token() {
  local status
  status=$(c -o "$WORK/token.json" -w '%{http_code}' "$URL/$TENANT/oauth2/v2.0/token" \
    -d grant_type=password -d client_id="$CLIENT" --data-urlencode username="$USER_UPN" \
    --data-urlencode password="$PASSWORD" --data-urlencode scope="${2:-$SCOPE}" \
    ${1:+--data-urlencode "claims=$1"})
  jq -c --argjson http "$status" '{http: $http, body: .}' "$WORK/token.json"
}

b64url() {  # base64url text → bytes
  local s=${1//-/+}
  s=${s//_//}
  case $((${#s} % 4)) in 2) s+='==' ;; 3) s+='=' ;; esac
  printf '%s' "$s" | base64 -d
}

# resource_check TOKEN: what the API does. Prints the claims, or `rejected: REASON`.
resource_check() {
  local header payload signature config jwk now
  IFS=. read -r header payload signature <<<"$1"
  config=$(c "$URL/$TENANT/v2.0/.well-known/openid-configuration")
  jwk=$(c "$(jq -r .jwks_uri <<<"$config")" |
    jq -c --arg kid "$(b64url "$header" | jq -r .kid)" '.keys[] | select(.kid == $kid)')
  [ -n "$jwk" ] || { echo 'rejected: no such key in the JWKS'; return; }
  # The JWK's modulus and exponent → an RSA public key in PEM; then the RS256 signature.
  printf 'asn1=SEQUENCE:key\n[key]\nn=INTEGER:0x%s\ne=INTEGER:0x%s\n' \
    "$(b64url "$(jq -r .n <<<"$jwk")" | od -An -v -tx1 | tr -d ' \n')" \
    "$(b64url "$(jq -r .e <<<"$jwk")" | od -An -v -tx1 | tr -d ' \n')" >"$WORK/key.cnf"
  openssl asn1parse -genconf "$WORK/key.cnf" -noout -out "$WORK/key.der"
  openssl rsa -RSAPublicKey_in -inform DER -in "$WORK/key.der" -pubout -out "$WORK/key.pem" 2>/dev/null
  printf '%s.%s' "$header" "$payload" >"$WORK/signed"
  b64url "$signature" >"$WORK/signature"
  openssl dgst -sha256 -verify "$WORK/key.pem" -signature "$WORK/signature" "$WORK/signed" >/dev/null 2>&1 ||
    { echo 'rejected: bad signature'; return; }
  now=$(date +%s)
  b64url "$payload" | jq -c --arg iss "$(jq -r .issuer <<<"$config")" --arg aud "$AUDIENCE" --argjson now "$now" '
    if .iss != $iss then "rejected: iss \(.iss)"
    elif .aud != $aud then "rejected: aud \(.aud)"
    elif .exp + 60 < $now or .nbf - 60 > $now then "rejected: expired or not yet valid"
    elif (.xms_cc // []) | map(ascii_downcase) | index("protapp") | not then "rejected: no protapp in xms_cc"
    else . end'
}

admin POST reset >/dev/null
admin DELETE requests >/dev/null
U=$(jq -rn --arg u "$USER_UPN" '$u | @uri')
check "not CA-targeted yet" '{"caTargeted":false}' "$(admin POST "users/$U/ca" '{"targeted":false}' | jq '{caTargeted}')"

# 1. No CA: a token; declaring protapp puts it in xms_cc, and the API accepts the token.
answer=$(token "$PROTAPP")
check "1 token without CA" '{"http":200,"token_type":"Bearer"}' "$(jq '{http, token_type: .body.token_type}' <<<"$answer")"
check "1 the API accepts it" "{\"aud\":\"$AUDIENCE\",\"upn\":\"$USER_UPN\",\"xms_cc\":[\"protapp\"]}" \
  "$(resource_check "$(jq -r .body.access_token <<<"$answer")" | jq '{aud, upn, xms_cc}')"
answer=$(token '{"access_token":{"xms_cc":{"values":["ProtApp"]}}}')
check "1 ProtApp (any case) is protapp: the API accepts it" '{"xms_cc":["ProtApp"]}' \
  "$(resource_check "$(jq -r .body.access_token <<<"$answer")" | jq -c '{xms_cc}')"
check "1 the API refuses a token without protapp" '"rejected: no protapp in xms_cc"' \
  "$(resource_check "$(token | jq -r .body.access_token)")"

# 2. CA armed: with protapp, HTTP 400 unauthorized_client + protection_policy_required (53005).
check "2 CA armed" '{"caTargeted":true}' "$(admin POST "users/$U/ca" '{"targeted":true}' | jq '{caTargeted}')"
check "2 53005 with protapp" '{"http":400,"error":"unauthorized_client","suberror":"protection_policy_required","error_codes":[53005]}' \
  "$(token "$PROTAPP" | jq '{http, error: .body.error, suberror: .body.suberror, error_codes: .body.error_codes}')"

# 3. Without protapp: 400 invalid_grant, 53009, no suberror.
check "3 53009 without protapp" '{"http":400,"error":"invalid_grant","suberror":null,"error_codes":[53009]}' \
  "$(token | jq '{http, error: .body.error, suberror: .body.suberror, error_codes: .body.error_codes}')"

# 4. Remediation: a MAM-service token (never blocked), enroll, report compliance, retry.
MAM=$(token "$PROTAPP" "$MAM_SCOPE" | jq -r .body.access_token)
enrolled=$(mam enroll "{\"appId\":\"$CLIENT\"}")
check "4 enroll" '{"status":100,"statusName":"NewPoliciesReceived","accountAllowed":true}' "$(jq '{status, statusName, accountAllowed}' <<<"$enrolled")"
ENROLLMENT=$(jq -r .enrollmentId <<<"$enrolled")
VERSION=$(jq .policy.version <<<"$enrolled")
check "4 report compliance" '{"complianceStatusName":"Compliant"}' \
  "$(mam report-compliance "{\"enrollmentId\":\"$ENROLLMENT\",\"policyVersion\":$VERSION}" | jq '{complianceStatusName}')"
check "4 token after remediation: the API accepts it" '{"xms_cc":["protapp"]}' \
  "$(resource_check "$(token "$PROTAPP" | jq -r .body.access_token)" | jq '{xms_cc}')"

# 5. Allowed accounts: drop the user (the policy version goes up); the next check-in says
#    accountAllowed false, the compliance report is refused, CA blocks again. Then restore.
ALLOWED=$(admin GET state | jq -c '.policy.allowedAccounts')
check "5 allowed accounts changed" "{\"version\":$((VERSION + 1))}" \
  "$(admin PUT policy/allowed-accounts "$(jq -c --arg u "$USER_UPN" '{allowedAccounts: map(select(. != $u))}' <<<"$ALLOWED")" | jq '{version}')"
check "5 check-in: not allowed" '{"status":100,"accountAllowed":false}' \
  "$(mam checkin "{\"enrollmentId\":\"$ENROLLMENT\",\"policyVersion\":$VERSION}" | jq '{status, accountAllowed}')"
check "5 compliance report refused" '{"complianceStatusName":"NotCompliant","reason":"accountNotAllowed"}' \
  "$(mam report-compliance "{\"enrollmentId\":\"$ENROLLMENT\"}" | jq '{complianceStatusName, reason}')"
check "5 53005 again" '[53005]' "$(token "$PROTAPP" | jq -c .body.error_codes)"
VERSION=$(admin PUT policy/allowed-accounts "{\"allowedAccounts\":$ALLOWED}" | jq .version)
check "5 check-in: allowed again" '{"status":100,"accountAllowed":true}' \
  "$(mam checkin "{\"enrollmentId\":\"$ENROLLMENT\"}" | jq '{status, accountAllowed}')"
check "5 compliant again" '{"complianceStatusName":"Compliant"}' \
  "$(mam report-compliance "{\"enrollmentId\":\"$ENROLLMENT\",\"policyVersion\":$VERSION}" | jq '{complianceStatusName}')"

# 6. A fault: the next token request is answered 503 with Retry-After; the request log says so.
check "6 fault armed" '{"route":"token","status":503,"retryAfter":2,"remaining":1}' \
  "$(admin POST faults '{"route":"token","status":503,"retryAfter":2}' | jq '{route, status, retryAfter, remaining}')"
c -D "$WORK/headers" -o "$WORK/fault.json" "$URL/$TENANT/oauth2/v2.0/token" -d grant_type=password -d client_id="$CLIENT" \
  --data-urlencode username="$USER_UPN" --data-urlencode password="$PASSWORD" --data-urlencode scope="$SCOPE"
check "6 the 503" '{"status":"503","retryAfter":"2","error":"temporarily_unavailable"}' \
  "$(jq --arg s "$(awk 'NR==1 {print $2}' "$WORK/headers")" \
    --arg r "$(tr -d '\r' <"$WORK/headers" | awk -F': ' 'tolower($1) == "retry-after" {print $2}')" \
    '{status: $s, retryAfter: $r, error}' "$WORK/fault.json")"
check "6 the request log names it" '{"route":"token","status":503}' "$(admin GET requests | jq '.[-1] | {route, status}')"
check "6 the next request passes" '{"http":200}' "$(token "$PROTAPP" | jq '{http}')"

# 7. Selective wipe: queued, delivered once at the next check-in (102); the enrollment and the
#    compliance are gone (213, then 53005).
check "7 wipe queued" "{\"queued\":true,\"upn\":\"$USER_UPN\"}" "$(admin POST "users/$U/wipe" "{\"appId\":\"$CLIENT\"}" | jq '{queued, upn}')"
check "7 check-in gets the wipe" '{"status":102,"statusName":"WipeReceived","wipe":{"reason":"adminRequested","scope":"selective"}}' \
  "$(mam checkin "{\"enrollmentId\":\"$ENROLLMENT\"}" | jq '{status, statusName, wipe}')"
check "7 enrollment gone" '{"status":213}' "$(mam checkin "{\"enrollmentId\":\"$ENROLLMENT\"}" | jq '{status}')"
check "7 53005 until remediated again" '[53005]' "$(token "$PROTAPP" | jq -c .body.error_codes)"
echo "all checks passed"
