#!/usr/bin/python3
"""Signs in on an issuer's page in headless Chromium, as a person would.

usage: sign_in.py URL USERNAME PASSWORD [--expect-redirect-to PREFIX] [--screenshot FILE]

PREFIX defaults to the URL's own redirect_uri.

Opens URL (an authorize URL that `compliancectl sign-in --browser` printed), fills the page's
username and password fields (mockauth's `login`/`passwd`, or any page's first email/text and
password inputs, across the pages of a multi-step sign-in), submits, and waits until the
browser reaches the loopback redirect. Prints the final page's text; exit 0 when the
redirect was reached, 1 otherwise (with the page's text on stderr).
"""
import argparse
import sys
import time
import urllib.parse

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def visible(driver, selector):
    return [e for e in driver.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed() and e.is_enabled()]


def fill_and_submit(driver, args, state):
    """Fills the username and password fields that are visible, and submits."""
    users = visible(driver, "input[name=login], input[name=username], input[type=email], input[name=email]")
    passwords = visible(driver, "input[type=password]")
    if users and not state["user"]:
        users[0].clear()
        users[0].send_keys(args.username)
        state["user"] = True
    if passwords and not state["password"]:
        passwords[0].clear()
        passwords[0].send_keys(args.password)
        state["password"] = True
    if users or passwords:
        buttons = visible(driver, "button[type=submit], input[type=submit]")
        before = driver.current_url
        (buttons[0].click() if buttons else (passwords or users)[0].submit())
        for _ in range(100):
            if driver.current_url != before or not visible(driver, "input[type=password]"):
                break
            time.sleep(0.1)
        state["user"] = state["user"] and bool(users) and not passwords
        state["password"] = False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("username")
    parser.add_argument("password")
    parser.add_argument("--expect-redirect-to")
    parser.add_argument("--screenshot")
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args()
    if not args.expect_redirect_to:
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(args.url).query)
        args.expect_redirect_to = query.get("redirect_uri", [""])[0]
        if not args.expect_redirect_to:
            print("the URL names no redirect_uri; give --expect-redirect-to", file=sys.stderr)
            return 2

    options = Options()
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-sync", "--disable-extensions"]:
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.set_page_load_timeout(args.timeout)
        driver.get(args.url)
        deadline = time.time() + args.timeout
        state = {"user": False, "password": False}
        while time.time() < deadline:
            if driver.current_url.startswith(args.expect_redirect_to):
                break
            try:
                fill_and_submit(driver, args, state)
            except StaleElementReferenceException:
                pass  # the page navigated while we looked at it (a busy machine): look again
            time.sleep(0.2)
        text = driver.find_element(By.TAG_NAME, "body").text if driver.find_elements(By.TAG_NAME, "body") else ""
        if args.screenshot:
            driver.save_screenshot(args.screenshot)
        print(text)
        if not driver.current_url.startswith(args.expect_redirect_to):
            print(f"the browser did not reach {args.expect_redirect_to}; it is at a page saying: {text[:500]}", file=sys.stderr)
            return 1
        return 0
    except WebDriverException as error:
        try:
            arrived = driver.current_url.startswith(args.expect_redirect_to)
        except WebDriverException:
            arrived = False
        print(f"browser error: {error.msg}{' (after the redirect arrived)' if arrived else ''}", file=sys.stderr)
        return 0 if arrived else 1
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(main())
