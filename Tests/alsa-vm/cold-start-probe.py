#!/usr/bin/env python3
"""Start-up figures of `audiograph play` in the alsa-vm guest (run by run-cold-start.sh).

  usage: cold-start-probe.py AUDIOGRAPH INSTRUMENT

Spawns `audiograph play` on hw:Loopback,0,0, connected from VirMIDI 2-0, and measures from the
spawn: when the `AudioGraph` client appears in /proc/asound/seq/clients (polled every 5 ms), and
when the first note is heard on the loopback capture (hw:Loopback,1,0, read as it arrives; a
note-on on channel 1 is sent to VirMIDI every 20 ms from the moment the port is visible).
Prints one line of figures and audiograph's own `ready in` line; exits 1 if either never happens.
"""
import os
import re
import signal
import subprocess
import sys
import threading
import time

TIMEOUT = 150.0
PLAY_STATUS = "/proc/asound/card0/pcm0p/sub0"


def card_of(name):
    with open("/proc/asound/cards") as f:
        for line in f:
            m = re.match(r"\s*(\d+)\s+\[(\w+)\s*\]", line)
            if m and m.group(2).startswith(name):
                return int(m.group(1))
    raise SystemExit(f"no {name} card")


def read_text(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def main():
    ag, instrument = sys.argv[1], sys.argv[2]
    rawmidi = f"/dev/snd/midiC{card_of('VirMIDI')}D0"
    t0 = time.monotonic()
    play = subprocess.Popen(
        [ag, "play", "--device", "hw:Loopback,0,0", "--period", "1024", "--periods", "3",
         "--instrument", instrument, "--connect", "Virtual Raw MIDI 2-0"],
        stdout=subprocess.DEVNULL, stderr=open("ag.txt", "w"))
    since = lambda: (time.monotonic() - t0) * 1000
    found = {}

    def watch_port():
        while "port" not in found and since() < TIMEOUT * 1000:
            if "AudioGraph" in read_text("/proc/asound/seq/clients"):
                found["port"] = since()
                break
            time.sleep(0.005)

    def send_notes():
        while "port" not in found and since() < TIMEOUT * 1000:
            time.sleep(0.005)
        fd = os.open(rawmidi, os.O_WRONLY)
        while "sound" not in found and since() < TIMEOUT * 1000:
            os.write(fd, bytes([0x80, 60, 0, 0x90, 60, 100]))
            time.sleep(0.02)
        os.close(fd)

    threading.Thread(target=watch_port, daemon=True).start()
    threading.Thread(target=send_notes, daemon=True).start()

    # The capture opens once the playback side has fixed the loopback's format.
    while "RUNNING" not in read_text(PLAY_STATUS + "/status") and since() < TIMEOUT * 1000:
        time.sleep(0.005)
    params = read_text(PLAY_STATUS + "/hw_params")
    fmt = re.search(r"format: (\S+)", params)
    if not fmt:
        play.kill()
        raise SystemExit("playback never started:\n" + read_text("ag.txt"))
    fmt = fmt.group(1)
    width = {"S16_LE": 2, "S32_LE": 4, "FLOAT_LE": 4}[fmt]
    rec = subprocess.Popen(["arecord", "-q", "-D", "hw:Loopback,1,0", "-f", fmt, "-r", "48000", "-c", "2",
                            "-t", "raw", "--period-size=240", "--buffer-size=1920"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    import array
    code = {"S16_LE": "h", "S32_LE": "i", "FLOAT_LE": "f"}[fmt]
    threshold = {"S16_LE": 100, "S32_LE": 100 << 16, "FLOAT_LE": 100 / 32768}[fmt]
    while since() < TIMEOUT * 1000:
        chunk = rec.stdout.read(240 * 2 * width)
        if not chunk:
            break
        samples = array.array(code, chunk[: len(chunk) // width * width])
        if samples and max(abs(s) for s in samples) > threshold:
            found["sound"] = since()
            break
    rec.kill()
    play.send_signal(signal.SIGTERM)
    try:
        play.wait(timeout=20)
    except subprocess.TimeoutExpired:
        play.kill()
    log = read_text("ag.txt")
    ready = re.search(r"ready in (\d+) ms", log)
    print(f"exec → AudioGraph port visible: {found.get('port', float('nan')):.0f} ms; "
          f"exec → first note audible: {found.get('sound', float('nan')):.0f} ms; "
          f"audiograph says: ready in {ready.group(1) if ready else '?'} ms")
    if "port" not in found or "sound" not in found:
        print(log)
        sys.exit(1)


main()
