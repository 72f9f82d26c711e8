"""The page's test keyboard heard on the audio: against `audiograph play --device pipewire --panel PORT`
playing into PipeWire's null sink (run-keyboard-audio.sh records the sink and measures the pitch).
Holds A4 for HOLD seconds on the page and checks what the health list says of the audio server.
Usage: keyboard_audio_test.py PORT EXPECTED_AUDIO_SERVER HOLD"""
import sys, time

import browser
from browser import check, chromium, health, wait_for
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

port, expected_server, hold = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
driver = chromium()
try:
    driver.get(f"http://127.0.0.1:{port}/")
    link = driver.find_element(By.ID, "link")
    check("page loads and its WebSocket connects", wait_for(lambda: "up" in link.get_attribute("class")), link.text)
    shown = wait_for(lambda: health(driver).get("audio server"))
    check("health names the audio server playback goes to", shown == expected_server, f"'{shown}'")
    key = driver.find_element(By.CSS_SELECTOR, '#keys button[data-note="69"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", key)
    ActionChains(driver).click_and_hold(key).perform()
    time.sleep(hold)
    ActionChains(driver).release().perform()
    print(f"A4 held on the page for {hold} s", flush=True)
finally:
    driver.quit()
print(f"{browser.passed} passed, {browser.failed} failed")
sys.exit(1 if browser.failed else 0)
