"""A test double in front of an OpenID Connect provider: it is the issuer the daemon is given,
passes everything through to the provider, and re-signs each id_token with its own key (its
JWKS), so it can serve what a real provider must never send.

usage: python double.py UPSTREAM_ISSUER

Its first stdout line is `listening on http://127.0.0.1:PORT` (its issuer). Its discovery
document is the provider's with its own issuer, token endpoint and jwks_uri (the browser
still signs in at the provider's authorize endpoint). `POST /mode` with one of these as the
body changes what the token endpoint answers from then on:
  pass              the provider's answer, id_token re-signed (iss: the double)
  wrong-aud         ... with `aud` another client's
  bad-signature     ... with its signature broken
  decline:SCOPE     ... with SCOPE left out of the granted `scope`
"""
import json
import sys
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from jwcrypto import jwk, jwt

UPSTREAM = sys.argv[1].rstrip("/")
KEY = jwk.JWK.generate(kty="RSA", size=2048, kid="double-key", use="sig", alg="RS256")
STATE = {"mode": "pass"}
LOCK = threading.Lock()


def upstream_discovery():
    with urllib.request.urlopen(UPSTREAM + "/.well-known/openid-configuration", timeout=10) as answer:
        return json.load(answer)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        sys.stderr.write("%s\n" % (format % args))

    def reply(self, status, body, content_type="application/json"):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)

    @property
    def issuer(self):
        return "http://%s:%d" % self.server.server_address[:2]

    def do_GET(self):
        if self.path == "/.well-known/openid-configuration":
            document = upstream_discovery()
            document.update(issuer=self.issuer, token_endpoint=self.issuer + "/token", jwks_uri=self.issuer + "/jwks")
            document.pop("device_authorization_endpoint", None)
            return self.reply(200, document)
        if self.path == "/jwks":
            return self.reply(200, {"keys": [json.loads(KEY.export_public())]})
        self.reply(404, {"error": "not_found"})

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path == "/mode":
            with LOCK:
                STATE["mode"] = body.decode().strip()
            return self.reply(200, {"mode": STATE["mode"]})
        if self.path != "/token":
            return self.reply(404, {"error": "not_found"})
        headers = {name: value for name, value in self.headers.items() if name.lower() in ("authorization", "content-type", "accept")}
        request = urllib.request.Request(upstream_discovery()["token_endpoint"], data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                status, data = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, data = error.code, error.read()
        if status != 200:
            return self.reply(status, data)
        tokens = json.loads(data)
        with LOCK:
            mode = STATE["mode"]
        if "id_token" in tokens:
            claims = json.loads(jwt.JWT(jwt=tokens["id_token"]).token.objects["payload"].decode())
            claims["iss"] = self.issuer
            if mode == "wrong-aud":
                claims["aud"] = "another-client"
            token = jwt.JWT(header={"alg": "RS256", "kid": "double-key", "typ": "JWT"}, claims=claims)
            token.make_signed_token(KEY)
            signed = token.serialize()
            if mode == "bad-signature":
                head, payload, signature = signed.split(".")
                signed = ".".join([head, payload, ("A" if signature[0] != "A" else "B") + signature[1:]])
            tokens["id_token"] = signed
        if mode.startswith("decline:"):
            declined = mode.split(":", 1)[1]
            tokens["scope"] = " ".join(s for s in tokens.get("scope", "").split() if s != declined)
        self.reply(200, tokens)


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("listening on http://127.0.0.1:%d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
