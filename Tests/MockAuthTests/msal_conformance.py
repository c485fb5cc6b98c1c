"""MSAL Python against mockauth: the conformance script run by MSALConformanceTests.

Usage: python msal_conformance.py BASE_URL CERT_PEM
Prints one JSON object with the outcome of each scenario; exits 0 when the script ran
(the Swift test judges the outcomes), non-zero on an unexpected exception.
"""
import base64
import html.parser
import json
import sys
import urllib.parse

import msal
import requests

BASE, CERT = sys.argv[1], sys.argv[2]
AUTHORITY = BASE + "/contoso.com"
SCOPES = ["api://contoso-chat/Chat.Read"]
REDIRECT = "http://localhost:8765"


class FormParser(html.parser.HTMLParser):
    """Collects the single form's action and input fields."""

    def __init__(self):
        super().__init__()
        self.forms = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"action": attrs.get("action"), "fields": {}})
        elif tag == "input" and self.forms and attrs.get("name"):
            self.forms[-1]["fields"][attrs["name"]] = attrs.get("value") or ""


def play_browser(auth_uri, login, password):
    """GET the sign-in page, submit the form, return the redirect's query as a dict."""
    page = requests.get(auth_uri, verify=CERT, timeout=10)
    page.raise_for_status()
    parser = FormParser()
    parser.feed(page.text)
    assert len(parser.forms) == 1, "expected exactly one form, got %d" % len(parser.forms)
    form = parser.forms[0]
    fields = dict(form["fields"])
    assert "login" in fields and "passwd" in fields, fields
    prefilled = fields["login"]
    fields["login"], fields["passwd"] = login, password
    answer = requests.post(form["action"], data=fields, verify=CERT, allow_redirects=False, timeout=10)
    assert answer.status_code == 302, (answer.status_code, answer.text[:300])
    location = answer.headers["Location"]
    assert location.startswith(REDIRECT), location
    query = urllib.parse.urlparse(location).query
    return {k: v[0] for k, v in urllib.parse.parse_qs(query).items()}, prefilled


def claims_of(jwt):
    payload = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


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
    response, prefilled = play_browser(flow["auth_uri"], login, "Passw0rd!")
    result = application.acquire_token_by_auth_code_flow(flow, response)
    return result, response, prefilled


def summary(result):
    keep = ["error", "suberror", "error_codes", "token_type", "scope"]
    out = {k: result.get(k) for k in keep if k in result}
    if "access_token" in result:
        out["access_token_claims"] = claims_of(result["access_token"])
    if "id_token_claims" in result:
        out["id_token_claims"] = result["id_token_claims"]
    if "error_description" in result:
        out["error_description_head"] = result["error_description"].split("\r\n")[0]
    return out


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
