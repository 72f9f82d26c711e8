#!/usr/bin/env python3
"""wavcheck.py FILE.wav [--expect-hz F] [--tol-hz T] [--min-rms R] [--min-seconds S]

Measures a 16-bit PCM WAV captured in the kernel rig (first channel): where the signal is
(above -60 dBFS), its RMS over that span, and its dominant frequency (FFT peak of up to 1 s,
refined by parabolic interpolation of the log magnitude). Exits 1 when an expectation fails.
"""
import argparse
import sys
import wave

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("wav")
    ap.add_argument("--expect-hz", type=float)
    ap.add_argument("--tol-hz", type=float, default=5.0)
    ap.add_argument("--min-rms", type=float)
    ap.add_argument("--min-seconds", type=float)
    a = ap.parse_args()
    try:
        with wave.open(a.wav, "rb") as w:
            channels, width, rate = w.getnchannels(), w.getsampwidth(), w.getframerate()
            raw = w.readframes(w.getnframes())
    except (OSError, wave.Error) as e:
        print(f"FAIL: {a.wav}: {e}")
        return 1
    if width != 2:
        print(f"FAIL: {a.wav}: {8 * width}-bit samples; only 16-bit PCM is read")
        return 1
    x = np.frombuffer(raw, dtype="<i2")[::channels].astype(np.float64) / 32768.0
    loud = np.nonzero(np.abs(x) > 1e-3)[0]
    span = x[loud[0]:loud[-1] + 1] if len(loud) else x[:0]
    seconds = len(span) / rate
    rms = float(np.sqrt(np.mean(span ** 2))) if len(span) else 0.0
    hz = 0.0
    if len(span) >= rate // 10:
        seg = span[:rate] * np.hanning(min(len(span), rate))
        mag = np.log(np.abs(np.fft.rfft(seg, 4 * len(seg))) + 1e-12)
        k = int(np.argmax(mag[1:-1])) + 1
        offset = 0.5 * (mag[k - 1] - mag[k + 1]) / (mag[k - 1] - 2 * mag[k] + mag[k + 1])
        hz = (k + offset) * rate / (4 * len(seg))
    print(f"{a.wav}: {len(x) / rate:.3f} s, signal {loud[0] / rate if len(loud) else 0:.3f}-"
          f"{(loud[-1] + 1) / rate if len(loud) else 0:.3f} s ({seconds:.3f} s), rms {rms:.4f}, {hz:.1f} Hz")
    failures = []
    if a.expect_hz is not None and abs(hz - a.expect_hz) > a.tol_hz:
        failures.append(f"dominant {hz:.1f} Hz, expected {a.expect_hz} +- {a.tol_hz} Hz")
    if a.min_rms is not None and rms < a.min_rms:
        failures.append(f"rms {rms:.4f} below {a.min_rms}")
    if a.min_seconds is not None and seconds < a.min_seconds:
        failures.append(f"signal lasts {seconds:.3f} s, under {a.min_seconds} s")
    for f in failures:
        print("FAIL: " + f)
    print("OK" if not failures else "NOT OK")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
