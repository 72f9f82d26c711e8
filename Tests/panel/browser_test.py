"""The web panel in a real headless browser (Chromium + chromedriver + Selenium), against a
running `audiograph play --device paced --panel PORT --midi SONG --input-file SINE`.

Each check acts on the page as a person would and reads the instrument through the control
socket (`audiograph status --json`, `audiograph set`), so the page and the CLI must agree.
Screenshots go to SHOTS (phone 412x915, desktop 1280x800).
Usage: browser_test.py AUDIOGRAPH PORT SHOTS_DIR"""
import json, os, subprocess, sys, time

import browser
from browser import check, chromium, health, wait_for
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

audiograph, port, shots = sys.argv[1], int(sys.argv[2]), sys.argv[3]
url = f"http://127.0.0.1:{port}/"


def status():
    out = subprocess.run([audiograph, "status", "--json"], capture_output=True, text=True, timeout=10).stdout
    return json.loads(out)


driver = chromium()
try:
    driver.get(url)
    link = driver.find_element(By.ID, "link")
    check("page loads and its WebSocket connects", wait_for(lambda: "up" in link.get_attribute("class")), link.text)
    check("controls built from the parameters", wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, '[data-param="bus.synth.gain"]')))
    # Health and MIDI in say what status says: where playback goes, the sources connected (this
    # host has no sequencer: the ALSA rig checks a real list, Tests/alsa-vm/autoconnect-rtpmidid.sh).
    shown, s = wait_for(lambda: (lambda h: h if h.get("audio server") else None)(health(driver))), status()
    check("health shows where playback goes, as status does", shown and shown["audio server"] == s.get("audioServer"),
          f"page '{shown and shown.get('audio server')}', status '{s.get('audioServer')}'")
    text = subprocess.run([audiograph, "status"], capture_output=True, text=True, timeout=10).stdout
    check("plain `status` names the audio server", f"audio server: {s.get('audioServer')}" in text, text.splitlines()[1:2])
    sources = driver.find_element(By.ID, "sources").text
    expected = ", ".join(s["midiSources"]) or "no sources connected" if "midiSources" in s else "no ALSA sequencer here"
    check("MIDI in lists the sources status lists", sources == expected, f"'{sources}'")

    # Meters move while the song plays: the output meter's unlit part changes between frames.
    # Read until it has shown three widths, up to 400 readings (at least 20 s of the song): counted
    # in readings, not seconds, and long enough that a held chord where the page happened to load
    # (a busy machine loads it later in the song) is not taken for a still meter.
    cover = driver.find_element(By.CSS_SELECTOR, "#output-meter .cover")
    widths, readings = set(), 0
    while readings < 400 and len(widths) < 3:
        widths.add(cover.value_of_css_property("width"))
        readings += 1
        time.sleep(0.05)
    check("output meter moves while the song plays", len(widths) >= 3, f"{len(widths)} distinct widths in {readings} readings")
    # Screenshots while the song plays: phone, then desktop, then back to the phone's size.
    # (Headless Chromium keeps windows at least 500 px wide: the phone's width is emulated.)
    phone = {"width": 412, "height": 915, "deviceScaleFactor": 1, "mobile": True}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", phone)
    time.sleep(0.8)
    driver.save_screenshot(os.path.join(shots, "panel-phone.png"))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
    time.sleep(0.8)
    driver.save_screenshot(os.path.join(shots, "panel-desktop.png"))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", phone)
    frames = driver.execute_script("""return new Promise((done) => { let n = 0; const ws = new WebSocket('ws://' + location.host + '/ws');
        ws.onmessage = (e) => { if (JSON.parse(e.data).type === 'state') n++; };
        setTimeout(() => { ws.close(); done(n); }, 2000); });""")
    check("state frames at >= 20 Hz", frames >= 40, f"{frames} frames in 2 s")

    # A fader drag on the page changes status's value.
    fader = driver.find_element(By.CSS_SELECTOR, 'input[data-param="bus.synth.gain"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", fader)
    before = status()["parameters"]["bus.synth.gain"]
    ActionChains(driver).click_and_hold(fader).move_by_offset(-fader.size["width"] // 3, 0).release().perform()
    after = wait_for(lambda: (lambda v: v if v != before else None)(status()["parameters"]["bus.synth.gain"]), 3)
    check("fader drag changes `status --json`", after is not None and after < before, f"{before} dB -> {after} dB")
    shown = float(fader.get_attribute("value"))
    check("page and status agree after the drag", after is not None and abs(shown - after) < 0.01, f"page {shown}, status {after}")

    # `audiograph set` moves the fader.
    subprocess.run([audiograph, "set", "bus.synth.gain=-20"], check=True, timeout=10)
    moved = wait_for(lambda: abs(float(fader.get_attribute("value")) + 20) < 0.01, 3)
    check("`audiograph set` moves the fader", moved, fader.get_attribute("value"))

    # The effect picker switches the mic effect: fft's readout (the input's dominant frequency) appears.
    button = driver.find_element(By.CSS_SELECTOR, '#effects button[data-value="5"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    s = wait_for(lambda: (lambda s: s if s["parameters"]["mic.effect"] == 5 and s.get("dominantFrequencyHz") else None)(status()), 5)
    check("effect picker switches the mic effect to fft", s is not None,
          f"mic.effect={s and s['parameters']['mic.effect']}, dominant {s and s.get('dominantFrequencyHz')} Hz")
    # The pitch tracker runs while the follower is on: switch it on from the page.
    follow = driver.find_element(By.CSS_SELECTOR, 'button[data-param="synth.follow"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", follow)
    follow.click()
    pitch = wait_for(lambda: (lambda t: t if "A4" in t else None)(driver.find_element(By.ID, "pitch").text), 5)
    check("page shows the input's detected pitch as A4", pitch is not None, pitch or driver.find_element(By.ID, "pitch").text)
    follow.click()

    # Refusals come back as a clear error on the page, nothing applied.
    driver.execute_script("""const ws = new WebSocket('ws://' + location.host + '/ws');
        ws.onopen = () => ws.send('{"type":"set","name":"bus.synth.gain","value":99}');
        ws.onmessage = (e) => { const m = JSON.parse(e.data); if (m.type === 'error') { window.refusal = m.message; ws.close(); } };""")
    refusal = wait_for(lambda: driver.execute_script("return window.refusal"), 3)
    check("out-of-range value refused with a reason", refusal and "between -60 and 12" in refusal, refusal or "")
    check("...and nothing applied", status()["parameters"]["bus.synth.gain"] == -20)

    # The test keyboard: wait for the song to end (voices 0), then hold A4 and look for one voice on
    # channel 1 and sound on the output; the note is the one keyed (note 69 at 440 Hz is what
    # `audiograph note A4` sends along the same path).
    wait_for(lambda: status()["voices"] == 0, 40)
    key = driver.find_element(By.CSS_SELECTOR, '#keys button[data-note="69"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", key)
    notes_before = status()["parts"][0]["notes"]
    ActionChains(driver).click_and_hold(key).perform()
    s = wait_for(lambda: (lambda s: s if s["parts"][0]["voices"] > 0 and max(s["outputPeakDecibels"]) > -40 else None)(status()), 3)
    check("test keyboard sounds a note on channel 1", s is not None,
          s and f"ch1 voices {s['parts'][0]['voices']}, notes {notes_before} -> {s['parts'][0]['notes']}, out {max(s['outputPeakDecibels']):.1f} dBFS")
    driver.find_element(By.ID, "panic").click()
    ActionChains(driver).release().perform()
    s = wait_for(lambda: (lambda s: s if s["voices"] == 0 else None)(status()), 3)
    check("panic silences", s is not None, s and f"voices {s['voices']}")

    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]
    check("no script errors in the console", not errors, "; ".join(e["message"] for e in errors[:3]))

finally:
    driver.quit()

print(f"{browser.passed} passed, {browser.failed} failed")
sys.exit(1 if browser.failed else 0)
