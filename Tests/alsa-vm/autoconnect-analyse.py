#!/usr/bin/env python3
"""Host-side analysis of the rtpmidid autoconnect rig capture (run-autoconnect-rtpmidid.sh).

  autoconnect-analyse.py WORKDIR

Reads WORKDIR/capture.wav and figures.txt and expects exactly three notes, in order: A4 for 1.0 s
and E5 from the stand-in's session (E5 held when the session ended: it must stop when the port
went), then C5 from `audiograph note` (0.2 s) held by `audiograph cc 64 127` after both commands
exited, until `audiograph cc 64 0`. Uses instrument-analyse.py's WAV reader, envelope, note
segmentation and pitch estimate. Exit 1 on a failure.
"""
import importlib.util
import os
import sys

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
spec = importlib.util.spec_from_file_location(
    "instrument_analyse", os.path.join(os.path.dirname(os.path.abspath(__file__)), "instrument-analyse.py"))
ia = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ia)

RELEASE_S = 0.1  # synth.release 0.05 s, plus the 50% crossing's placement


def main(work):
    figures = dict(line.split() for line in open(os.path.join(work, "figures.txt")) if len(line.split()) == 2)
    rate, x = ia.read_wav(os.path.join(work, "capture.wav"))
    env = ia.envelope(x)
    notes = ia.segments(env, 0, len(env))
    print(f"capture {len(x) / rate:.2f} s; notes (s): " + ", ".join(f"{a / rate:.2f}-{b / rate:.2f}" for a, b, _ in notes))
    ia.check_pitches(x, notes, [69, 76, 72], "A4 and E5 from the session, C5 from the CLI")
    if len(notes) == 3:
        a4, e5, c5 = ((b - a) / rate for a, b, _ in notes)
        ia.report(0.9 <= a4 <= 1.2, f"A4 lasted {a4:.2f} s (sent for 1.0 s)")
        ia.report(0.45 <= e5 <= 0.6 + 0.35, f"E5 lasted {e5:.2f} s: released when the session ended (held 0.6 s, then the port went)")
        after_exit = int(figures.get("held-after-exit-ms", "0")) / 1000
        window = int(figures.get("pedal-window-ms", "0")) / 1000
        ia.report(0.2 + after_exit - RELEASE_S <= c5 <= window + RELEASE_S,
                  f"C5 lasted {c5:.2f} s: a 0.2 s note, still held {after_exit:.2f} s after the note command exited,"
                  f" released by 'cc 64 0' (the commands spanned {window:.2f} s)")
    tail = env[-int(0.3 * rate):]
    ia.report(float(tail.max()) < ia.SILENCE_THRESHOLD, f"silent at the end (peak {20 * np.log10(max(float(tail.max()), 1e-9)):.1f} dBFS)")
    print(f"session port subscribed {figures.get('session-subscribe-ms', '?')} ms after it appeared")
    return 1 if ia.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
