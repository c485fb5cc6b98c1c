#!/usr/bin/python3
"""Completes a device-code sign-in (RFC 8628) in headless Chromium, as a person on another
device would: opens the verification URI, signs in on the provider's login page, enters the
user code, and accepts.

usage: device_sign_in.py VERIFICATION_URI USER_CODE USERNAME PASSWORD

Exit 0 once the provider shows that the device was accepted (django-oauth-toolkit's grant
status page), 1 otherwise (the page's text on stderr).
"""
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def visible(driver, selector):
    return [e for e in driver.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed() and e.is_enabled()]


def main():
    uri, code, username, password = sys.argv[1:5]
    options = Options()
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]:
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.set_page_load_timeout(60)
        driver.get(uri)
        deadline = time.time() + 60
        while time.time() < deadline:
            if "device-grant-status" in driver.current_url:
                print(driver.find_element(By.TAG_NAME, "body").text)
                return 0
            passwords = visible(driver, "input[type=password]")
            codes = visible(driver, "input[name=user_code]")
            accept = visible(driver, "button[value=accept]")
            before = driver.current_url
            if passwords:
                visible(driver, "input[name=username]")[0].send_keys(username)
                passwords[0].send_keys(password)
                visible(driver, "button[type=submit]")[0].click()
            elif codes:
                codes[0].send_keys(code)
                visible(driver, "button[type=submit]")[0].click()
            elif accept:
                accept[0].click()
            for _ in range(100):
                if driver.current_url != before:
                    break
                time.sleep(0.05)
            time.sleep(0.2)
        print(f"the device was not accepted; the page says: {driver.find_element(By.TAG_NAME, 'body').text[:500]}", file=sys.stderr)
        return 1
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(main())
