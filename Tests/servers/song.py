#!/usr/bin/env python3
"""song.py OUT.mid NOTE...   writes a Standard MIDI File (format 0, 1 tick = 1 ms).

Each NOTE is START_MS:LENGTH_MS:KEY[:CHANNEL] (channel 1-16, default 1; velocity 100),
e.g. `song.py a.mid 500:60000:69` holds A4 from 0.5 s for 60 s; cc:TIME_MS:NUMBER:VALUE[:CHANNEL]
is a controller change (cc:0:10:0 pans channel 1 hard left). A final no-op event at the
last note-off + 200 ms keeps the file's end after the release.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
from smf import smf, variable_length as vlq  # noqa: E402


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip())
        return 2
    events = []
    for spec in sys.argv[2:]:
        if spec.startswith("cc:"):
            time, number, value, *rest = [int(p) for p in spec[3:].split(":")]
            channel = (rest[0] if rest else 1) - 1
            events.append((time, 0, bytes([0xB0 | channel, number, value])))
            continue
        parts = [int(p) for p in spec.split(":")]
        start, length, key = parts[:3]
        channel = (parts[3] if len(parts) > 3 else 1) - 1
        events.append((start, 1, bytes([0x90 | channel, key, 100])))
        events.append((start + length, 0, bytes([0x80 | channel, key, 0])))
    events.sort(key=lambda e: (e[0], e[1]))
    track = bytearray(b"\x00\xFF\x51\x03" + (500_000).to_bytes(3, "big"))  # 120 bpm: 500 ticks = 1 quarter
    now = 0
    for time, _, data in events:
        track += vlq(time - now) + data
        now = time
    track += vlq(200) + b"\xFF\x2F\x00"
    with open(sys.argv[1], "wb") as f:
        f.write(smf(track, 500))
    return 0


if __name__ == "__main__":
    sys.exit(main())
