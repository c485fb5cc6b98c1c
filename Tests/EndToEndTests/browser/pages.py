#!/usr/bin/python3
"""mockauth's pages for people, looked at in headless Chromium: the sign-in page, the device
page and /_admin/ui.

usage: pages.py BASE_URL OUT_DIR

BASE_URL is a running mockauth with the demo tenant (fixtures/contoso.json), fresh or reset;
the script changes its state through the admin API. Writes OUT_DIR/signin.png,
OUT_DIR/signin-error.png, OUT_DIR/device.png, OUT_DIR/device-done.png and OUT_DIR/admin.png
and prints, for each page, a line `=== NAME ===` followed by the page's visible text (document.body.innerText), then one line
`ok: CHECK` per check passed. Exit 0 when every check passed; 1 at the first failed one
(`FAILED: …` on stderr), 2 on a usage error.

(a) The sign-in page of an authorization request from `chatr` whose redirect URI is a
    loopback listener of this script: the app's and the tenant's names are visible, both
    fields have a <label for=…>, a wrong password shows the error on the page again (the
    username kept, no redirect), and Cancel redirects with error=access_denied and the state
    (RFC 6749 §4.1.2.1).
(b) The device-code verification page: the tenant named, the fields labelled, a sign-in with
    a fresh user code confirmed on the page.
(c) /_admin/ui after some admin-API setup and traffic that carries secrets (a password grant,
    a client secret, a token in a path): its sections, a known user, the armed fault and the
    request log are shown; no password, secret, token or code is.
"""
import http.server
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

TENANT = "contoso.com"
STATE = "pages-state-42"
PASSWORD = "Passw0rd!"
SECRETS = [PASSWORD, "daemon-s3cret", "web-s3cret", "eyJ", "wrong-Passw0rd"]


class Failed(Exception):
    pass


def check(condition, what, detail=""):
    if not condition:
        raise Failed(f"{what}{': ' + detail if detail else ''}")
    print(f"ok: {what}", flush=True)


class Redirects:
    """A loopback listener playing the app's redirect URI: records each request's path."""

    def __init__(self):
        self.paths = []
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                owner.paths.append(self.path)
                body = b"<!DOCTYPE html><html><body><p>Redirect received by the app.</p></body></html>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def call(base, method, path, body=None, form=None):
    """An HTTP request to mockauth; returns (status, parsed JSON or text)."""
    data, headers = None, {}
    if body is not None:
        data, headers = json.dumps(body).encode(), {"Content-Type": "application/json"}
    elif form is not None:
        data, headers = urllib.parse.urlencode(form).encode(), {"Content-Type": "application/x-www-form-urlencoded"}
    request = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            status, raw, kind = answer.status, answer.read(), answer.headers.get("Content-Type", "")
    except urllib.error.HTTPError as error:
        status, raw, kind = error.code, error.read(), error.headers.get("Content-Type", "")
    text = raw.decode("utf-8", "replace")
    return status, (json.loads(text) if "json" in kind and text else text)


def browser():
    options = Options()
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-sync", "--disable-extensions", "--hide-scrollbars",
                 "--window-size=1280,860", "--force-device-scale-factor=1"]:
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def page_text(driver, name):
    text = driver.execute_script("return document.body.innerText")
    print(f"=== {name} ===\n{text}\n=== end {name} ===", flush=True)
    return text


def wait_for(condition, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    return condition()


def label_of(driver, field_id):
    """The visible text of the <label for=field_id>, '' when there is none."""
    labels = [label for label in driver.find_elements(By.CSS_SELECTOR, f"label[for='{field_id}']") if label.is_displayed()]
    return labels[0].text.strip() if labels else ""


def sign_in_page(driver, base, out):
    redirects = Redirects()
    try:
        redirect_uri = f"http://127.0.0.1:{redirects.port}/"
        query = urllib.parse.urlencode({
            "client_id": "chatr", "response_type": "code", "redirect_uri": redirect_uri,
            "scope": "openid profile offline_access api://contoso-chat/Chat.Read", "state": STATE,
            "nonce": "n-1", "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "code_challenge_method": "S256",
        })
        driver.get(f"{base}/{TENANT}/oauth2/v2.0/authorize?{query}")
        driver.save_screenshot(os.path.join(out, "signin.png"))
        text = page_text(driver, "sign-in")
        check(driver.title == "Sign in to your account", "the sign-in page's title", driver.title)
        check("Chatr (managed chat app)" in text, "the app's display name is visible")
        check("Contoso" in text and "contoso.com" in text, "the tenant is named")
        check(driver.find_element(By.TAG_NAME, "h1").text == "Sign in", "the heading is 'Sign in'")
        check(label_of(driver, "login") == "Email address", "the username field has a label", label_of(driver, "login"))
        check(label_of(driver, "passwd") == "Password", "the password field has a label", label_of(driver, "passwd"))
        check(not driver.find_elements(By.ID, "error"), "no error before an attempt")
        signin = driver.find_element(By.CSS_SELECTOR, "button[name=signin]")
        cancel = driver.find_element(By.CSS_SELECTOR, "button[name=cancel]")
        check(signin.is_displayed() and signin.text == "Sign in", "a visible 'Sign in' button")
        check(cancel.is_displayed() and cancel.text == "Cancel", "a visible 'Cancel' button")
        card = driver.find_element(By.CSS_SELECTOR, "main.card").rect
        width = driver.execute_script("return document.documentElement.clientWidth")
        check(abs((card["x"] + card["width"] / 2) - width / 2) <= 2, "the card is centred", f"{card} in {width}")

        # A wrong password: the page again, with the message, the username kept, no redirect.
        driver.find_element(By.ID, "login").send_keys("bob@contoso.com")
        driver.find_element(By.ID, "passwd").send_keys("wrong-" + PASSWORD)
        signin.click()
        error = wait_for(lambda: [e for e in driver.find_elements(By.ID, "error") if e.is_displayed()])
        check(bool(error), "a wrong password shows an error on the page")
        driver.save_screenshot(os.path.join(out, "signin-error.png"))
        text = page_text(driver, "sign-in error")
        check("Your account or password is incorrect" in error[0].text, "the error says what is wrong", error[0].text)
        check(driver.find_element(By.ID, "login").get_attribute("value") == "bob@contoso.com", "the username is kept")
        check(driver.find_element(By.ID, "passwd").get_attribute("value") == "", "the password is not sent back")
        check(not redirects.paths, "a wrong password does not redirect", str(redirects.paths))
        check("Chatr (managed chat app)" in text, "the retry page still names the app")

        # Cancel: access_denied to the redirect URI, with the state.
        driver.find_element(By.CSS_SELECTOR, "button[name=cancel]").click()
        check(wait_for(lambda: redirects.paths), "Cancel redirects to the app")
        redirected = urllib.parse.parse_qs(urllib.parse.urlsplit(redirects.paths[0]).query)
        print(f"=== cancel redirect ===\n{redirects.paths[0]}\n=== end cancel redirect ===", flush=True)
        check(redirected.get("error") == ["access_denied"], "Cancel answers error=access_denied", str(redirected))
        check(redirected.get("state") == [STATE], "Cancel returns the state", str(redirected))
        check("code" not in redirected, "Cancel issues no code", str(redirected))
    finally:
        redirects.close()


def device_page(driver, base, out):
    status, flow = call(base, "POST", f"/{TENANT}/oauth2/v2.0/devicecode", form={
        "client_id": "chatr", "scope": "api://contoso-chat/Chat.Read"})
    check(status == 200 and "user_code" in flow, "a device-code sign-in starts", f"{status} {flow}")
    driver.get(flow["verification_uri"])
    driver.save_screenshot(os.path.join(out, "device.png"))
    text = page_text(driver, "device")
    check("Enter code" in text and "Contoso" in text, "the device page names the tenant")
    for field, label in [("user_code", "Code"), ("login", "Email address"), ("passwd", "Password")]:
        check(label_of(driver, field) == label, f"the device page's '{field}' field has a label", label_of(driver, field))
    driver.find_element(By.ID, "user_code").send_keys(flow["user_code"])
    driver.find_element(By.ID, "login").send_keys("alice@contoso.com")
    driver.find_element(By.ID, "passwd").send_keys(PASSWORD)
    driver.find_element(By.ID, "next-button").click()
    message = wait_for(lambda: [e for e in driver.find_elements(By.ID, "message") if e.is_displayed()])
    check(bool(message) and "You have signed in" in message[0].text, "the device page confirms the sign-in")
    driver.save_screenshot(os.path.join(out, "device-done.png"))
    page_text(driver, "device done")


def admin_page(driver, base, out):
    # Traffic carrying secrets: none may reach the page.
    status, token = call(base, "POST", f"/{TENANT}/oauth2/v2.0/token", form={
        "grant_type": "password", "client_id": "chatr", "username": "bob@contoso.com", "password": PASSWORD,
        "scope": "api://contoso-chat/Chat.Read openid offline_access"})
    check(status == 200 and "access_token" in token, "a password grant for bob", f"{status} {token}")
    status, app_token = call(base, "POST", f"/{TENANT}/oauth2/v2.0/token", form={
        "grant_type": "client_credentials", "client_id": "contoso-daemon", "client_secret": "daemon-s3cret",
        "scope": "api://contoso-chat/.default"})
    check(status == 200, "a client_credentials grant", f"{status} {app_token}")
    call(base, "GET", f"/{TENANT}/{token['access_token']}/x")  # a token in a path: a 404, logged redacted
    # bob's app enrolls with the MAM service and reports compliance.
    status, mam = call(base, "POST", f"/{TENANT}/oauth2/v2.0/token", form={
        "grant_type": "password", "client_id": "chatr", "username": "bob@contoso.com", "password": PASSWORD,
        "scope": "https://msmamservice.api.application/.default"})
    check(status == 200, "a MAM service token for bob", f"{status} {mam}")
    enroll = urllib.request.Request(
        f"{base}/mam/v1/enroll", data=b'{"appId":"chatr"}', method="POST",
        headers={"Content-Type": "application/json", "Authorization": "Bearer " + mam["access_token"]})
    with urllib.request.urlopen(enroll, timeout=30) as answer:
        enrollment = json.loads(answer.read())
    check(enrollment.get("status") == 100, "bob's app enrolls", str(enrollment))
    report = urllib.request.Request(
        f"{base}/mam/v1/report-compliance", data=json.dumps({"enrollmentId": enrollment["enrollmentId"]}).encode(), method="POST",
        headers={"Content-Type": "application/json", "Authorization": "Bearer " + mam["access_token"]})
    with urllib.request.urlopen(report, timeout=30) as answer:
        check(json.loads(answer.read()).get("complianceStatus") == 0, "bob's app reports compliance")
    # Admin-API setup.
    check(call(base, "POST", "/_admin/users/carol@contoso.com/ca", {"targeted": False})[0] == 200, "untarget carol")
    check(call(base, "POST", "/_admin/users/dave@contoso.com/wipe", {"appId": "chatr"})[0] == 200, "queue a wipe for dave")
    check(call(base, "POST", "/_admin/faults", {"route": "token", "count": 3, "status": 503, "retryAfter": 7})[0] == 201, "arm a fault")
    check(call(base, "POST", "/_admin/faults", {"route": "mam.checkin", "action": "reset"})[0] == 201, "arm a second fault")

    status, html = call(base, "GET", "/_admin/ui")
    check(status == 200 and html.startswith("<!DOCTYPE html>"), "/_admin/ui answers HTML", str(status))
    driver.get(f"{base}/_admin/ui")
    # The whole page in one screenshot: a viewport as tall as the page.
    height = driver.execute_script("return Math.ceil(document.documentElement.scrollHeight)")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 1280, "height": min(max(height, 720), 8000), "deviceScaleFactor": 1, "mobile": False})
    driver.save_screenshot(os.path.join(out, "admin.png"))
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    text = page_text(driver, "admin")
    headings = [h.text for h in driver.find_elements(By.TAG_NAME, "h2")]
    for heading in ["Applications", "Users", "Conditional access", "MAM policy", "Enrollments", "Armed faults", "Request log"]:
        check(heading in headings, f"the '{heading}' section", str(headings))
    check("alice@contoso.com" in text and "Alice Anders" in text, "a known user's UPN and name")
    check("a11ce000-0000-4000-8000-00000000a11c" in text, "a user's object id")
    enrollments = driver.find_element(By.ID, "enrollments").text
    check(enrollment["enrollmentId"] in enrollments and "bob@contoso.com" in enrollments, "bob's enrollment", enrollments)
    check("dave@contoso.com" in enrollments, "the pending wipe", enrollments)
    check("chatr" in driver.find_element(By.ID, "conditional-access").text, "bob's compliant app")
    faults = driver.find_element(By.ID, "faults").text
    check("token" in faults and "503" in faults and "mam.checkin" in faults and "reset" in faults, "the armed faults", faults)
    requests = driver.find_element(By.ID, "requests").text
    check("password" in requests and "bob@contoso.com" in requests, "the password grant in the request log", requests[:400])
    check("[redacted]" in requests, "the token in a path is redacted")
    check("pol-chatr" in driver.find_element(By.ID, "mam-policy").text, "the MAM policy")
    source = driver.page_source
    issued = {"bob's access token": token["access_token"], "bob's refresh token": token["refresh_token"],
              "bob's id token": token["id_token"], "the daemon's token": app_token["access_token"], "bob's MAM token": mam["access_token"]}
    secrets = {f"secret #{number}": secret for number, secret in enumerate(SECRETS, 1)}
    secrets.update({name: value[:24] for name, value in issued.items()})
    for name, secret in secrets.items():  # named, never printed
        check(secret not in text and secret not in source, f"{name} is not on the page")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    base, out = sys.argv[1].rstrip("/"), sys.argv[2]
    os.makedirs(out, exist_ok=True)
    driver = browser()
    try:
        driver.set_page_load_timeout(60)
        sign_in_page(driver, base, out)
        device_page(driver, base, out)
        admin_page(driver, base, out)
        return 0
    except Failed as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(main())
