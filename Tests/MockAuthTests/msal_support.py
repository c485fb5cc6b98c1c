"""Shared pieces of the MSAL Python scripts MSALConformanceTests runs: a browser that
fills in mockauth's sign-in form, and a summary of a token result."""
import base64
import html.parser
import json
import urllib.parse

import requests


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


def play_browser(auth_uri, login, password, cert, redirect):
    """GET the sign-in page, submit the form, return the redirect's query as a dict."""
    page = requests.get(auth_uri, verify=cert, timeout=10)
    page.raise_for_status()
    parser = FormParser()
    parser.feed(page.text)
    assert len(parser.forms) == 1, "expected exactly one form, got %d" % len(parser.forms)
    form = parser.forms[0]
    fields = dict(form["fields"])
    assert "login" in fields and "passwd" in fields, fields
    prefilled = fields["login"]
    fields["login"], fields["passwd"] = login, password
    answer = requests.post(form["action"], data=fields, verify=cert, allow_redirects=False, timeout=10)
    assert answer.status_code == 302, (answer.status_code, answer.text[:300])
    location = answer.headers["Location"]
    assert location.startswith(redirect), location
    query = urllib.parse.urlparse(location).query
    return {k: v[0] for k, v in urllib.parse.parse_qs(query).items()}, prefilled


def claims_of(jwt):
    payload = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


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
