"""MSAL Python against mockauth on Entra's other common paths (issue 52 items 1-5):
a Graph scope without a resource, a certificate credential, on-behalf-of, a /consumers
authority and max_age. Run by MSALConformanceTests.

Usage: python msal_entra_paths.py BASE_URL CERT_PEM CERTS_DIR
Prints one JSON object with each scenario's outcome; the Swift test judges them.
"""
import binascii
import json
import os
import sys

import msal
from cryptography import x509
from cryptography.hazmat.primitives import hashes

from msal_support import play_browser, summary

BASE, CERT, CERTS = sys.argv[1], sys.argv[2], sys.argv[3]
REDIRECT = "http://localhost:8765"
CHAT = ["api://contoso-chat/Chat.Read"]
MIDDLE_TIER = "c4a7e2d9-5b1f-4e3a-9c8d-7f2b6a1e3d5c"


def public_app(tenant="contoso.com", capabilities=("protapp",)):
    return msal.PublicClientApplication(
        "chatr", authority=BASE + "/" + tenant, instance_discovery=False, verify=CERT, timeout=10,
        client_capabilities=list(capabilities))


def confidential_app(client_id, credential):
    return msal.ConfidentialClientApplication(
        client_id, client_credential=credential, authority=BASE + "/contoso.com", instance_discovery=False,
        verify=CERT, timeout=10)


def auth_code(application, scopes, login, **kwargs):
    flow = application.initiate_auth_code_flow(scopes, redirect_uri=REDIRECT, login_hint=login, **kwargs)
    response, _ = play_browser(flow["auth_uri"], login, "Passw0rd!", CERT, REDIRECT)
    return application.acquire_token_by_auth_code_flow(flow, response)


report = {"msal_version": msal.__version__}

# 1. A Graph scope named without its resource.
report["graph_user_read"] = summary(auth_code(public_app(), ["User.Read"], "bob@contoso.com"))

# 2. Certificate credentials: an SHA-1 thumbprint (RS256, x5t) and the certificate (PS256, x5t#S256).
with open(os.path.join(CERTS, "contoso-daemon-key.pem")) as f:
    key = f.read()
with open(os.path.join(CERTS, "contoso-daemon-cert.pem")) as f:
    certificate = f.read()
sha1 = binascii.hexlify(x509.load_pem_x509_certificate(certificate.encode()).fingerprint(hashes.SHA1())).decode()
report["certificate_sha1"] = summary(confidential_app(
    "contoso-daemon", {"private_key": key, "thumbprint": sha1}).acquire_token_for_client(["api://contoso-chat/.default"]))
sha256_app = confidential_app("contoso-daemon", {"private_key": key, "public_certificate": certificate})
report["certificate_sha256"] = summary(sha256_app.acquire_token_for_client(["api://contoso-chat/.default"]))
# The same app again for another resource: MSAL sends the assertion it kept.
report["certificate_again"] = summary(sha256_app.acquire_token_for_client(["https://graph.microsoft.com/.default"]))

# 3. On-behalf-of: bob's token for the chat API becomes the API's Graph token for bob.
user = auth_code(public_app(), CHAT, "bob@contoso.com")
middle = confidential_app(MIDDLE_TIER, "chat-api-s3cret")
report["on_behalf_of"] = summary(middle.acquire_token_on_behalf_of(user.get("access_token", ""), ["User.Read"]))

# 4. A personal Microsoft account at /consumers.
consumers = public_app("consumers")
report["consumers"] = summary(auth_code(consumers, ["User.Read"], "pat@outlook.com"))
report["consumers_accounts"] = [a["home_account_id"] for a in consumers.get_accounts()]

# 5. max_age: MSAL checks the id token's auth_time.
report["max_age"] = summary(auth_code(public_app(), CHAT, "bob@contoso.com", max_age=300))

print(json.dumps(report))
