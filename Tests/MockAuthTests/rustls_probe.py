"""Fetches mockauth's discovery document with a rustls client (reqwest through pyreqwest),
trusting only the certificate at argv[2]; prints one JSON object: host -> HTTP status, or
the client's error."""
import json
import sys

from pyreqwest.client import SyncClientBuilder

base, certificate = sys.argv[1], sys.argv[2]
with open(certificate, "rb") as pem:
    client = SyncClientBuilder().add_root_certificate_pem(pem.read()).build()
report = {}
for host in ("127.0.0.1", "localhost"):
    url = base.replace("127.0.0.1", host) + "/contoso.com/v2.0/.well-known/openid-configuration"
    try:
        report[host] = client.get(url).build().send().status
    except Exception as error:  # the report names what the client refused
        report[host] = repr(error)[:400]
print(json.dumps(report))
