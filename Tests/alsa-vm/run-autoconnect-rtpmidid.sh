#!/bin/bash
# Host side of the rtpmidid autoconnect rig test (issue 14) and CLI-held controllers (issue 8):
# builds audiograph (release) unless SKIP_BUILD=1, boots the alsa-vm rig once to run
# autoconnect-rtpmidid.sh inside it, then measures the loopback capture on the host: the
# session's notes at the right pitch, the note the session left held released when it ended,
# and the CLI's note held by the CLI's pedal until `cc 64 0`.
#   Tests/alsa-vm/run-autoconnect-rtpmidid.sh     (ALSA_VM_DIR defaults to ../shared/alsa-vm)
#   KEEP=1 keeps the work directory (capture.wav, logs) and prints its path.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/host-lib.sh"

WORK=$(mktemp -d /tmp/autoconnect-rtpmidid.XXXXXX)
if [[ ${KEEP:-0} == 1 ]]; then echo "work directory: $WORK"; else trap 'rm -rf "$WORK"' EXIT; fi
# As in run-instrument-live.sh: the sine preset (starts in seconds under the rig's software CPU),
# channel 2 is the sine synth, held at full sustain so a held note is a steady tone.
cat > "$WORK/test.json" <<EOF
{ "name": "autoconnect rig test", "preset": "$REPO/Presets/Sine.aupreset",
  "channels": { "sampler": [1], "synth": [2] },
  "parameters": { "synth.attack": 0.001 } }
EOF

"$RIG/run-in-alsa-vm" -v --files "$WORK" --timeout 240 -- \
    bash "$HERE/autoconnect-rtpmidid.sh" "$AG" "$HERE/rtpmidid-standin.py"
status=$?

echo
echo "=== host: capture analysis"
python3 - "$WORK" <<'PY' || status=1
import struct, sys
import numpy as np

work = sys.argv[1]
figures = dict(line.split() for line in open(f"{work}/figures.txt") if len(line.split()) == 2)

def read_wav(path):
    """First channel as float64 in [-1, 1]: arecord writes whatever format play negotiated
    (integer PCM or IEEE float), which Python's wave module cannot all read."""
    data, pos, fmt = open(path, "rb").read(), 12, None
    while pos + 8 <= len(data):
        chunk, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        body = data[pos + 8:pos + 8 + size]
        if chunk == b"fmt ":
            tag, channels, rate = struct.unpack("<HHI", body[:8])
            bits = struct.unpack("<H", body[14:16])[0]
            fmt = (tag, channels, rate, bits)
        elif chunk == b"data" and fmt:
            tag, channels, rate, bits = fmt
            body = body[: len(body) // (channels * bits // 8) * (channels * bits // 8)]
            if tag == 3:
                samples = np.frombuffer(body, dtype="<f4" if bits == 32 else "<f8").astype(np.float64)
            else:
                samples = np.frombuffer(body, dtype={16: "<i2", 32: "<i4"}[bits]) / float(2 ** (bits - 1))
            return rate, samples.reshape(-1, channels)[:, 0]
        pos += 8 + size + (size & 1)
    sys.exit(f"{path}: no fmt/data chunk")

rate, x = read_wav(f"{work}/capture.wav")
hop = rate // 100  # 10 ms
rms = np.sqrt(np.mean(x[: len(x) // hop * hop].reshape(-1, hop) ** 2, axis=1))
sounding = rms > 0.005
# Sounding stretches (gaps under 50 ms merged: none are expected inside a held sine).
segments, start, quiet = [], None, 0
for i, on in enumerate(sounding):
    if on:
        start = i if start is None else start
        quiet = 0
    elif start is not None:
        quiet += 1
        if quiet > 5:
            segments.append((start, i - quiet + 1))
            start, quiet = None, 0
if start is not None:
    segments.append((start, len(sounding)))
print(f"capture {len(x) / rate:.2f} s; sounding stretches (s): "
      + ", ".join(f"{a / 100:.2f}-{b / 100:.2f}" for a, b in segments))

fails = 0
def check(ok, text):
    global fails
    print(("PASS: " if ok else "FAIL: ") + text)
    fails += 0 if ok else 1

def cents(segment, midi_note):
    a, b = segment
    mid = (a + b) // 2 * hop
    n = min(16384, (b - a) * hop // 2)
    frame = x[mid - n // 2: mid + n // 2] * np.hanning(n)
    spectrum = np.abs(np.fft.rfft(frame, 8 * n))
    k = int(np.argmax(spectrum))
    l, c, r = np.log(spectrum[k - 1: k + 2])
    hz = (k + 0.5 * (l - r) / (l - 2 * c + r)) * rate / (8 * n)
    return hz, 1200 * np.log2(hz / (440 * 2 ** ((midi_note - 69) / 12)))

check(len(segments) == 3, f"three notes heard (A4 and E5 from the session, C5 from the CLI): {len(segments)} stretches")
if len(segments) == 3:
    for segment, note, name in zip(segments, (69, 76, 72), ("A4", "E5", "C5")):
        hz, off = cents(segment, note)
        check(abs(off) < 5, f"{name} at {hz:.2f} Hz, {off:+.2f} cents")
    a4, e5, c5 = ((b - a) / 100 for a, b in segments)
    check(0.9 <= a4 <= 1.2, f"A4 lasted {a4:.2f} s (sent for 1.0 s)")
    check(0.45 <= e5 <= 0.95, f"E5 lasted {e5:.2f} s: released when the session ended (held 0.6 s, then the port went)")
    after_exit = int(figures.get("held-after-exit-ms", "0")) / 1000
    window = int(figures.get("pedal-window-ms", "0")) / 1000
    release = 0.1  # synth.release 0.05 s, and 10 ms analysis windows
    check(0.2 + after_exit - release <= c5 <= window + release,
          f"C5 lasted {c5:.2f} s: a 0.2 s note, still held {after_exit:.2f} s after the note command exited,"
          f" released by 'cc 64 0' (commands spanned {window:.2f} s)")
print(f"session port subscribed {figures.get('session-subscribe-ms', '?')} ms after it appeared")
tail = rms[-30:]
check(float(tail.max()) < 0.001, f"silent at the end (peak 10 ms RMS {20 * np.log10(max(float(tail.max()), 1e-9)):.1f} dBFS)")
sys.exit(1 if fails else 0)
PY
echo
[[ $status == 0 ]] && echo "autoconnect rtpmidid rig test: PASS" || echo "autoconnect rtpmidid rig test: FAIL"
exit $status
