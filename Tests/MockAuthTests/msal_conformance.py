"""MSAL Python against mockauth: the conformance script run by MSALConformanceTests.

Usage: python msal_conformance.py BASE_URL CERT_PEM
Prints one JSON object with the outcome of each scenario; exits 0 when the script ran
(the Swift test judges the outcomes), non-zero on an unexpected exception.
"""
import json
import sys
import urllib.parse

import msal
import requests

import msal_support
from msal_support import summary

BASE, CERT = sys.argv[1], sys.argv[2]
AUTHORITY = BASE + "/contoso.com"
SCOPES = ["api://contoso-chat/Chat.Read"]
REDIRECT = "http://localhost:8765"


def app(capabilities):
    return msal.PublicClientApplication(
        "chatr",
        authority=AUTHORITY,
        instance_discovery=False,
        verify=CERT,
        timeout=10,
        client_capabilities=capabilities,
    )


def auth_code(application, login):
    flow = application.initiate_auth_code_flow(SCOPES, redirect_uri=REDIRECT, login_hint=login)
    response, prefilled = msal_support.play_browser(flow["auth_uri"], login, "Passw0rd!", CERT, REDIRECT)
    result = application.acquire_token_by_auth_code_flow(flow, response)
    return result, response, prefilled


report = {"msal_version": msal.__version__}

bob_app = app(["protapp"])
bob, bob_redirect, prefilled = auth_code(bob_app, "bob@contoso.com")
report["bob_auth_code"] = summary(bob)
report["bob_redirect_keys"] = sorted(bob_redirect.keys())
report["bob_login_prefilled"] = prefilled
accounts = bob_app.get_accounts(username="bob@contoso.com")
report["bob_accounts"] = [
    {"username": a["username"], "home_account_id": a["home_account_id"]} for a in accounts
]
if accounts:
    refreshed = bob_app.acquire_token_silent(SCOPES, account=accounts[0], force_refresh=True)
    report["bob_refresh"] = summary(refreshed or {"error": "acquire_token_silent returned None"})
    report["bob_refresh_new_token"] = bool(refreshed) and refreshed.get("access_token") != bob.get("access_token")

alice, _, _ = auth_code(app(["protapp"]), "alice@contoso.com")
report["alice_protapp"] = summary(alice)

alice_plain, _, _ = auth_code(app(None), "alice@contoso.com")
report["alice_without_capabilities"] = summary(alice_plain)

# Resource-owner password and device code.
# MSAL builds the user-realm URL from the host name without the port
# (https://127.0.0.1/common/userrealm/...), so on a non-443 port it cannot reach
# mockauth's /common/userrealm; mark the host as having no user realm discovery,
# which sends MSAL straight to the managed (ROPC) path.
msal.authority.Authority._domains_without_user_realm_discovery.add(
    urllib.parse.urlparse(BASE).hostname)
ropc_app = app(["protapp"])
report["bob_password"] = summary(ropc_app.acquire_token_by_username_password(
    "bob@contoso.com", "Passw0rd!", SCOPES))

device_app = app(["protapp"])
flow = device_app.initiate_device_flow(scopes=SCOPES)
report["device_flow_keys"] = sorted(k for k in flow if k in ("user_code", "device_code", "verification_uri", "message"))
approval = requests.post(
    BASE + "/_admin/device-codes/%s/approve" % flow["user_code"],
    json={"upn": "bob@contoso.com"}, verify=CERT, timeout=10)
report["device_approval_status"] = approval.status_code
flow["expires_at"] = min(flow.get("expires_at", 0), __import__("time").time() + 30)
report["bob_device_code"] = summary(device_app.acquire_token_by_device_flow(flow))

print(json.dumps(report))
