#!/bin/bash
# Host side of the live demo test: the demo played live through ALSA must sound like the same
# demo rendered offline (same graph): as long, as loud (RMS within 1.5 dB), and silent at the end.
#   Tests/alsa-vm/run-demo-live.sh      (SKIP_BUILD=1 uses the built release binary)
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/host-lib.sh"
make_work demo-live
"$AG" render --out "$WORK/offline.wav" > /dev/null || exit 2
"$RIG/run-in-alsa-vm" --files "$WORK" --timeout 240 -- bash "$HERE/demo-live.sh" "$AG"
status=$?
python3 - "$WORK" <<'PY' || status=1
import subprocess, sys
import numpy as np
work = sys.argv[1]
def load(name):
    raw = subprocess.run(["sox", f"{work}/{name}", "-t", "f32", "-c", "2", "-"], capture_output=True, check=True).stdout
    return np.frombuffer(raw, dtype=np.float32).reshape(-1, 2)
live, offline = load("cap.wav"), load("offline.wav")
def span(x):
    loud = np.nonzero(np.abs(x).max(axis=1) > 1e-3)[0]
    return x[loud[0]:loud[-1] + 1]
a, b = span(live), span(offline)
rms = lambda x: 20 * np.log10(np.sqrt(np.mean(x.astype(np.float64) ** 2)))
checks = [
    (f"live demo sounds for {len(a) / 48000:.2f} s (offline {len(b) / 48000:.2f} s)", abs(len(a) - len(b)) / 48000 < 0.5),
    (f"live RMS {rms(a):.2f} dBFS vs offline {rms(b):.2f} dBFS", abs(rms(a) - rms(b)) < 1.5),
    (f"silent at the end (last 50 ms peak {np.abs(live[-2400:]).max():.1e})", np.abs(live[-2400:]).max() < 1e-3),
]
for text, ok in checks:
    print(("PASS: " if ok else "FAIL: ") + text)
sys.exit(0 if all(ok for _, ok in checks) else 1)
PY
rig_verdict "demo live rig test"
