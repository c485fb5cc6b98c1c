"""An app team's CI test against mockauth with MSAL Python: app-protection conditional access
(AADSTS53005 / 53009), remediation with the MAM service, allowed accounts, a selective wipe, a
fault, and the resource server's check of the access token (signature, iss, aud, xms_cc).

Usage: python msal_app_test.py BASE_URL --cacert CERT_PEM
           [--tenant contoso.com] [--client-id chatr] [--scope api://contoso-chat/Chat.Read]
           [--user bob@contoso.com]

BASE_URL is mockauth's `listening on` URL (https: MSAL Python wants an https authority; start
mockauth with `--tls-self-signed DIR` and pass DIR/cert.pem). The user must be licensed, have
the MAM policy assigned, be in its allowed accounts, and the policy must name the client id
(bob in the demo tenant). The script resets mockauth first. It prints `ok   STEP` per check and
exits 1 at the first unexpected answer, printing what was expected and what came.
Pinned packages: docs/examples/requirements.txt.
"""
import argparse
import json
import sys
import time
import urllib.parse

import jwt  # PyJWT, with the cryptography package for RS256
import msal
import requests

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("base_url")
parser.add_argument("--cacert", help="PEM file to trust for https (mockauth's DIR/cert.pem)")
parser.add_argument("--tenant", default="contoso.com")
parser.add_argument("--client-id", default="chatr")
parser.add_argument("--scope", default="api://contoso-chat/Chat.Read")
parser.add_argument("--user", default="bob@contoso.com")
parser.add_argument("--audience", default="c4a7e2d9-5b1f-4e3a-9c8d-7f2b6a1e3d5c",
                    help="the API's application ID: the access token's aud, as at Entra (not the api:// URI)")
args = parser.parse_args()

BASE = args.base_url.rstrip("/")
AUTHORITY = f"{BASE}/{args.tenant}"
SCOPES = [args.scope]
AUDIENCE = args.audience  # the API's application ID: the access token's aud
MAM_SCOPES = ["https://msmamservice.api.application/.default"]  # never blocked by CA
USER = args.user
VERIFY = args.cacert or True
http = requests.Session()
http.verify = VERIFY


# --- checks ---------------------------------------------------------------------------------

def expect(step, got, **wanted):
    """Each `wanted` key must equal got[key] (a missing key is None); otherwise exit 1."""
    wrong = {key: value for key, value in wanted.items() if got.get(key) != value}
    if wrong:
        print(f"FAIL {step}\n  expected: {json.dumps(wanted)}\n  got:      {json.dumps(got)[:3000]}",
              file=sys.stderr)
        sys.exit(1)
    print(f"ok   {step}")


def summary(result):
    """An MSAL result without its tokens (what a CI log may show)."""
    result = result or {"error": "no result (acquire_token_silent found nothing)"}
    keep = ("error", "suberror", "error_codes", "token_type", "scope")
    out = {key: result[key] for key in keep if key in result}
    out["has_access_token"] = "access_token" in result
    if "error_description" in result:
        out["error_description"] = result["error_description"].split("\r\n")[0]
    return out


def raised(call):
    """summary(call()), or the MsalServiceError MSAL raised (it does on a 5xx token answer)."""
    try:
        return summary(call())
    except msal.exceptions.MsalServiceError as error:
        return {"raised": f"{type(error).__name__}: {error}"}


# --- mockauth's admin API and MAM service ---------------------------------------------------

def admin(method, path, body=None, status=200):
    """One admin call (`/_admin/...`); its JSON answer. Any other HTTP status than `status` fails."""
    answer = http.request(method, BASE + "/_admin/" + path, json=body, timeout=10)
    if answer.status_code != status:
        expect(f"{method} /_admin/{path}", {"status": answer.status_code, "body": answer.text[:500]}, status=status)
    return answer.json()


def user_path(action):
    return "users/" + urllib.parse.quote(USER, safe="") + "/" + action


def last_request():
    """The request log's newest entry (route, status, fault…): shows that mockauth was asked."""
    return admin("GET", "requests")[-1]


def mam(route, token, body):
    """POST /mam/v1/ROUTE with the MAM-scoped access token; the JSON answer (HTTP 200 expected)."""
    answer = http.post(f"{BASE}/mam/v1/{route}", json=body, timeout=10,
                       headers={"Authorization": "Bearer " + token})
    if answer.status_code != 200:
        expect(f"POST /mam/v1/{route}", {"status": answer.status_code, "body": answer.text[:500]}, status=200)
    return answer.json()


# --- the app: MSAL Python -------------------------------------------------------------------

CACHE = msal.TokenCache()  # one token cache, like an app's persisted cache


def new_app(capabilities=("protapp",)):
    """A PublicClientApplication over the shared token cache. A new instance per step, as an app
    restarted between steps would be: MSAL Python keeps an HTTP 400 answer to a token request for
    60 s per instance and gives it again for the same request without asking the server."""
    return msal.PublicClientApplication(
        args.client_id, authority=AUTHORITY,
        instance_discovery=False,  # do not ask login.microsoftonline.com about this host
        verify=VERIFY, timeout=10, token_cache=CACHE,
        client_capabilities=list(capabilities) or None)  # None: no xms_cc claims request at all


def sign_in(app, scopes=SCOPES):
    """Device-code sign-in, completed by mockauth's admin API instead of a person."""
    flow = app.initiate_device_flow(scopes=scopes)
    if "user_code" not in flow:
        expect("device code flow started", flow, user_code="(a code)")
    admin("POST", "device-codes/" + urllib.parse.quote(flow["user_code"]) + "/approve", {"upn": USER})
    flow["expires_at"] = time.time() + 30  # approved already: the first poll answers
    return app.acquire_token_by_device_flow(flow)


def account(app):
    accounts = app.get_accounts(username=USER)
    if not accounts:
        expect("the account is in MSAL's cache", {"accounts": []}, accounts=[USER])
    return accounts[0]


def silent(app, scopes=SCOPES):
    """A refresh with the cached refresh token (force_refresh: not the cached access token)."""
    return app.acquire_token_silent_with_error(scopes, account(app), force_refresh=True)


# --- the resource server (your API) ---------------------------------------------------------

class Rejected(Exception):
    pass


def resource_check(access_token):
    """What the API does with a bearer token: verify the RS256 signature with the issuer's JWKS,
    check iss, aud, exp and nbf, then require `protapp` in xms_cc, in any case (the issuer takes
    `ProtApp` as `protapp` and echoes it as declared). Returns the claims."""
    config = http.get(f"{AUTHORITY}/v2.0/.well-known/openid-configuration", timeout=10).json()
    keys = http.get(config["jwks_uri"], timeout=10).json()["keys"]
    kid = jwt.get_unverified_header(access_token).get("kid")
    key = next((jwt.PyJWK(k) for k in keys if k.get("kid") == kid), None)
    if key is None:
        raise Rejected(f"no key {kid!r} in the issuer's JWKS")
    try:
        claims = jwt.decode(access_token, key=key, algorithms=["RS256"], audience=AUDIENCE,
                            issuer=config["issuer"], leeway=60,
                            options={"require": ["exp", "nbf", "iat", "iss", "aud"]})
    except jwt.InvalidTokenError as error:
        raise Rejected(f"invalid token: {error}") from error
    if "protapp" not in [str(capability).lower() for capability in claims.get("xms_cc") or []]:
        raise Rejected(f"the client did not declare protapp (xms_cc: {claims.get('xms_cc')})")
    return claims


def accepted(step, result, xms_cc=("protapp",)):
    """The token of `result` passes the resource check; its claims."""
    expect(step, summary(result), has_access_token=True, token_type="Bearer")
    try:
        claims = resource_check(result["access_token"])
    except Rejected as error:
        expect(step + ": the API accepts it", {"rejected": str(error)}, accepted=True)
    expect(step + ": the API accepts it", claims, aud=AUDIENCE, preferred_username=USER, xms_cc=list(xms_cc))
    return claims


# --- the walk -------------------------------------------------------------------------------

admin("POST", "reset")
admin("DELETE", "requests")
expect("not CA-targeted yet", admin("POST", user_path("ca"), {"targeted": False}), caTargeted=False)

# 1. No CA: a token straight away; with protapp declared, xms_cc carries it. The SDK guide's
#    Swift sample spells it ProtApp: the issuer echoes that, and the API takes it as protapp.
accepted("1 token without CA", sign_in(new_app()))
accepted("1 token declaring ProtApp", sign_in(new_app(capabilities=("ProtApp",))), xms_cc=("ProtApp",))
plain = sign_in(new_app(capabilities=()))
expect("1 token without protapp (no CA yet)", summary(plain), has_access_token=True)
try:
    resource_check(plain["access_token"])
    expect("1 the API refuses a token without protapp", {"accepted": True}, accepted=False)
except Rejected as error:
    expect("1 the API refuses a token without protapp", {"reason": str(error)},
           reason="the client did not declare protapp (xms_cc: None)")

# 2. CA armed for the user: with protapp, 53005 protection_policy_required (remediable).
expect("2 CA armed", admin("POST", user_path("ca"), {"targeted": True}), caTargeted=True)
expect("2 53005 with protapp", summary(sign_in(new_app())),
       error="unauthorized_client", suberror="protection_policy_required", error_codes=[53005],
       error_description="AADSTS53005: Application needs to enforce Intune protection policies.",
       has_access_token=False)

# 3. A client that does not declare protapp: 53009 (invalid_grant, no suberror; not remediable).
expect("3 53009 without protapp", summary(sign_in(new_app(capabilities=()))),
       error="invalid_grant", suberror=None, error_codes=[53009], has_access_token=False)

# 4. Remediation, as the Intune SDK does it: a MAM-service token (never blocked), enroll,
#    apply the policy, report compliance, retry the token request.
app = new_app()
mam_token = silent(app, MAM_SCOPES)
expect("4 MAM-service token despite CA", summary(mam_token), has_access_token=True)
mam_token = mam_token["access_token"]
enrolled = mam("enroll", mam_token, {"appId": args.client_id})
expect("4 enroll", enrolled, status=100, statusName="NewPoliciesReceived", upn=USER, accountAllowed=True)
enrollment, version = enrolled["enrollmentId"], enrolled["policy"]["version"]
expect("4 report compliance", mam("report-compliance", mam_token, {"enrollmentId": enrollment, "policyVersion": version}),
       complianceStatus=0, complianceStatusName="Compliant")
accepted("4 token after remediation", silent(app))

# 5. Allowed accounts: the admin drops the user; the app learns it at its next check-in and must
#    block the account; its compliance report is refused and CA blocks tokens again.
allowed = [upn for upn in (admin("GET", "state")["policy"]["allowedAccounts"] or []) if upn.lower() != USER.lower()]
policy = admin("PUT", "policy/allowed-accounts", {"allowedAccounts": allowed})
expect("5 allowed accounts changed (version bumped)", policy, version=version + 1)
expect("5 check-in delivers the new policy", mam("checkin", mam_token, {"enrollmentId": enrollment, "policyVersion": version}),
       status=100, statusName="NewPoliciesReceived", accountAllowed=False)
expect("5 compliance report refused", mam("report-compliance", mam_token, {"enrollmentId": enrollment, "policyVersion": version + 1}),
       complianceStatusName="NotCompliant", reason="accountNotAllowed")
app = new_app()
expect("5 53005 on the silent refresh", summary(silent(app)), error="unauthorized_client", error_codes=[53005])
expect("5 mockauth answered it (not MSAL's cache)", last_request(), route="token", status=400, grantType="refresh_token")
policy = admin("PUT", "policy/allowed-accounts", {"allowedAccounts": allowed + [USER]})
expect("5 check-in: allowed again", mam("checkin", mam_token, {"enrollmentId": enrollment, "policyVersion": version + 1}),
       status=100, accountAllowed=True)
expect("5 compliant again", mam("report-compliance", mam_token, {"enrollmentId": enrollment, "policyVersion": policy["version"]}),
       complianceStatusName="Compliant")
accepted("5 token again", silent(new_app()))

# 6. A fault: the token endpoint answers 503 with Retry-After: 5, once. MSAL Python raises
#    MsalServiceError on a 5xx token answer, and answers the same request from its cache (no
#    request reaches mockauth) until Retry-After has passed; then the retry gets a token.
rule = admin("POST", "faults", {"route": "token", "status": 503, "retryAfter": 5}, status=201)
expect("6 fault armed", rule, route="token", status=503, retryAfter=5, remaining=1)
app = new_app()
admin("DELETE", "requests")
expect("6 MSAL raises on the 503", raised(lambda: silent(app)), raised="MsalServiceError: HTTP Error: 503")
expect("6 the request log names the fault", last_request(), route="token", status=503, fault=f"#{rule['id']} none 503")
expect("6 within Retry-After: MSAL's cached 503", raised(lambda: silent(app)), raised="MsalServiceError: HTTP Error: 503")
expect("6 ...which never reached mockauth", {"requests": len(admin("GET", "requests"))}, requests=1)
time.sleep(5.5)  # Retry-After (5 s: long enough that a busy machine stays inside it above)
accepted("6 token after Retry-After", silent(app))

# 7. Selective wipe: queued by the admin, delivered at the next check-in (102, once). The app
#    must delete the account's data and tokens; the enrollment and compliance are gone.
expect("7 wipe queued", admin("POST", user_path("wipe"), {"appId": args.client_id}), queued=True, upn=USER)
wipe = mam("checkin", mam_token, {"enrollmentId": enrollment})
expect("7 check-in gets the wipe", wipe, status=102, statusName="WipeReceived")
expect("7 the wipe's details", wipe["wipe"], reason="adminRequested", scope="selective")
app = new_app()
app.remove_account(account(app))  # what the app does on 102: forget the account's tokens
expect("7 tokens removed", {"accounts": len(app.get_accounts(username=USER))}, accounts=0)
expect("7 enrollment gone", mam("checkin", mam_token, {"enrollmentId": enrollment}), status=213, statusName="AppNotEnrolled")
expect("7 signing in again: 53005 until remediated", summary(sign_in(new_app())), error_codes=[53005])

print("all checks passed")
