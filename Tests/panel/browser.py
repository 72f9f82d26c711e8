"""Headless Chromium (Debian's chromium + chromedriver) driven by Selenium, offline, and the check
and wait helpers the panel's browser tests share. HOME must point at a temporary directory
(Chromium writes under it even with --user-data-dir)."""
import os, time

os.environ["SE_OFFLINE"] = "true"  # no Selenium Manager download
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    passed, failed = passed + bool(ok), failed + (not ok)
    print(f"{'PASS' if ok else 'FAIL'} {name}{': ' + str(detail) if detail else ''}", flush=True)


def wait_for(predicate, seconds=5.0):
    """Polls until predicate() is truthy; returns its last value."""
    end = time.time() + seconds
    while True:
        value = predicate()
        if value or time.time() > end:
            return value
        time.sleep(0.05)


def chromium():
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
              "--window-size=412,915", f"--user-data-dir={os.environ['HOME']}/chromium-profile"]:
        options.add_argument(a)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def health(driver):
    """The health list as {term: value}."""
    return driver.execute_script("""const d = {}; const c = document.getElementById('health-list').children;
        for (let i = 0; i + 1 < c.length; i += 2) d[c[i].textContent] = c[i + 1].textContent; return d;""")
