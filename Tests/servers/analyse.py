#!/usr/bin/env python3
"""analyse.py COMMAND WAV [options]   judges a recording made from a sound server's sink.

  pitch WAV --expect-hz F [--start S] [--end S] [--tol-cents C]
      FFT peak (Hann, zero-padded, parabolic interpolation) of the first channel between S and E
      seconds (default: the loud part) against F.
  continuity WAV --hz F [--min-seconds S] [--reference-hz R]
      A held sine at F Hz (first channel) must have no discontinuity: within the loud span (its
      first and last 50 ms left out: attack, release) the second-order residual
      x[n+1] - 2cos(w)x[n] + x[n-1], which is ~0 for a sine, must stay under 2 % of the
      amplitude. Reports dropouts and jumps with their times, and how long the tone lasted.
      --reference-hz: the second channel holds another client's sine at R through the same
      server; a discontinuity found in both (within 100 ms) is the server's or the recorder's
      (a starved machine), reported but not counted against the first. --allow T,...: moments
      (seconds into the recording) where the test changed something on purpose, e.g. JACK's
      buffer size; a jump within 150 ms of one is not counted either.
  segments WAV [--expect HZ,HZ,...] [--absent HZ,...] [--gaps S,...]
      The recording as a sequence of notes: per 20 ms window, silence (< -50 dBFS) or the
      dominant frequency; runs of the same note are printed with their times (a dropout under
      250 ms inside a note does not split it). --expect: the notes, in order (within 35 cents);
      --absent: frequencies that must never dominate; --gaps: the silences between consecutive
      notes, in seconds (within 0.3 s).

Reads PCM 16/24/32-bit and 32-bit float WAV (also WAVE_FORMAT_EXTENSIBLE, and a data chunk whose
size was never written, as a killed recorder leaves it). Exits 1 when an expectation fails.
"""
import argparse
import math
import struct
import sys

import numpy as np


def read_wav(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise ValueError(f"{path}: not a RIFF/WAVE file")
    pos, fmt, samples = 12, None, None
    while pos + 8 <= len(data):
        cid, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        body = pos + 8
        if cid == b"fmt ":
            tag, channels, rate = struct.unpack("<HHI", data[body:body + 8])
            bits = struct.unpack("<H", data[body + 14:body + 16])[0]
            if tag == 0xFFFE:
                tag = struct.unpack("<H", data[body + 24:body + 26])[0]
            fmt = (tag, channels, rate, bits)
        elif cid == b"data":
            end = len(data) if size in (0, 0xFFFFFFFF) or body + size > len(data) else body + size
            samples = data[body:end]
            break
        pos = body + size + (size & 1)
    if fmt is None or samples is None:
        raise ValueError(f"{path}: no fmt or data chunk")
    tag, channels, rate, bits = fmt
    width = bits // 8
    samples = samples[:len(samples) // (width * channels) * width * channels]
    if tag == 3 and bits == 32:
        x = np.frombuffer(samples, dtype="<f4").astype(np.float64)
    elif tag == 1 and bits == 16:
        x = np.frombuffer(samples, dtype="<i2") / 32768.0
    elif tag == 1 and bits == 32:
        x = np.frombuffer(samples, dtype="<i4") / 2147483648.0
    elif tag == 1 and bits == 24:
        b = np.frombuffer(samples, dtype=np.uint8).reshape(-1, 3).astype(np.int32)
        x = ((b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)) << 8 >> 8) / 8388608.0
    else:
        raise ValueError(f"{path}: format tag {tag}, {bits} bits not read")
    return rate, x.reshape(-1, channels)


def peak_hz(x, rate):
    seg = x * np.hanning(len(x))
    n = 1 << int(math.ceil(math.log2(len(seg) * 4)))
    mag = np.log(np.abs(np.fft.rfft(seg, n)) + 1e-12)
    k = int(np.argmax(mag[2:-1])) + 2
    offset = 0.5 * (mag[k - 1] - mag[k + 1]) / (mag[k - 1] - 2 * mag[k] + mag[k + 1])
    return (k + offset) * rate / n


def cents(hz, ref):
    return 1200 * math.log2(hz / ref) if hz > 0 else float("inf")


def loud_span(x, threshold=1e-3):
    loud = np.nonzero(np.abs(x) > threshold)[0]
    return (int(loud[0]), int(loud[-1]) + 1) if len(loud) else (0, 0)


def cmd_pitch(a, rate, x):
    start, end = loud_span(x)
    if a.start is not None:
        start = int(a.start * rate)
    if a.end is not None:
        end = int(a.end * rate)
    if end - start < rate // 20:
        print(f"FAIL: {a.wav}: {(end - start) / rate:.3f} s of signal, too short to measure")
        return 1
    hz = peak_hz(x[start:end], rate)
    c = cents(hz, a.expect_hz)
    ok = abs(c) <= a.tol_cents
    print(f"{a.wav}: {start / rate:.2f}-{end / rate:.2f} s: peak {hz:.2f} Hz, {c:+.1f} cents from {a.expect_hz} Hz"
          + ("" if ok else f" (FAIL: more than {a.tol_cents} cents)"))
    return 0 if ok else 1


def discontinuities(x, hz, rate):
    """Times (s) of the discontinuities of a held sine at hz in x, with the tone's length, its
    amplitude and the worst residual relative to it."""
    start, end = loud_span(x, 1e-2)
    guard = int(0.05 * rate)
    body = x[start + guard:end - guard]
    if len(body) < rate // 10:
        return [], (end - start) / rate, 0.0, 0.0
    amplitude = float(np.percentile(np.abs(body), 99.9))
    w = 2 * math.pi * hz / rate
    residual = body[2:] - 2 * math.cos(w) * body[1:-1] + body[:-2]
    bad = np.nonzero(np.abs(residual) > 0.02 * amplitude)[0]
    events = []  # one per cluster of bad samples (a dropout has two edges close together)
    for i in bad:
        if not events or i - events[-1][1] > rate // 100:
            events.append([i, i])
        else:
            events[-1][1] = i
    worst = float(np.max(np.abs(residual))) / amplitude
    times = [((start + guard + first + 1) / rate, last - first + 1) for first, last in events]
    return times, (end - start) / rate, amplitude, worst


def cmd_continuity(a, rate, frames):
    events, seconds, amplitude, worst = discontinuities(frames[:, 0], a.hz, rate)
    print(f"{a.wav}: tone {seconds:.2f} s at amplitude {amplitude:.3f}; worst residual {100 * worst:.3f} % of it; "
          f"{len(events)} discontinuities")
    shared = []
    if a.reference_hz:
        # The right channel carries another client's sine through the same server: a jump there
        # too, within 100 ms (they come in clusters while the machine starves the server), is the
        # server's or the recorder's, not ours.
        ref, ref_seconds, _, _ = discontinuities(frames[:, 1], a.reference_hz, rate)
        print(f"  reference ({a.reference_hz} Hz, right channel, another client): {ref_seconds:.2f} s, "
              f"{len(ref)} discontinuities")
        shared = [e for e in events if any(abs(e[0] - r[0]) < 0.1 for r in ref)]
    for t, n in events[:12]:
        print(f"  discontinuity at {t:.3f} s ({n} samples over 2 %)" + (" — in the reference too, or at a change" if (t, n) in shared else ""))
    if a.allow:
        # Moments the test changed something on purpose (a buffer-size change): a jump within
        # 150 ms of one is the change itself.
        moments = [float(t) for t in a.allow.split(",")]
        shared += [e for e in events if e not in shared and any(abs(e[0] - m) < 0.15 for m in moments)]
    ours = len(events) - len(shared)
    failures = []
    if a.reference_hz and len(ref) > 10 and ours:
        # The server starved every client over and over: matching jumps by time is no longer a
        # judgement of ours (a busy machine must not fail the test, nor pass a broken one here).
        print(f"INCONCLUSIVE: the reference client had {len(ref)} discontinuities (the machine starved the server); "
              f"{ours} of ours not matched, not counted")
        ours = 0
    if ours:
        failures.append(f"{ours} discontinuities" + (" not in the reference" if a.reference_hz else ""))
    if a.min_seconds is not None and seconds < a.min_seconds:
        failures.append(f"tone lasted {seconds:.2f} s, under {a.min_seconds} s")
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


def segments(rate, x, window=0.02):
    """Runs of one note or of silence: [start_s, end_s, hz or None, loudest window dB]. A silence
    shorter than 250 ms inside a note (a dropout) does not split it; a note's frequency is the
    median of its windows' FFT peaks."""
    n = int(window * rate)
    marks = []  # per window: hz or None, dB
    for i in range(0, len(x) - n + 1, n):
        rms = float(np.sqrt(np.mean(x[i:i + n] ** 2)))
        db = 20 * math.log10(rms) if rms > 0 else -200
        hz = peak_hz(x[i:i + 4 * n], rate) if db > -50 and i + 4 * n <= len(x) else None
        marks.append((hz, db) if db > -50 else (None, db))
    runs = []  # [start, end, [hz...], db]
    for k, (hz, db) in enumerate(marks):
        t = k * window
        last = runs[-1] if runs else None
        same = last is not None and ((hz is None and not last[2]) or (hz is not None and last[2]
                                     and abs(cents(hz, float(np.median(last[2])))) < 35))
        if same:
            last[1] = t + window
            if hz is not None:
                last[2].append(hz)
            last[3] = max(last[3], db)
        else:
            runs.append([t, t + window, [hz] if hz is not None else [], db])
    # Heal dropouts: note, short silence, same note → one note.
    healed = []
    for r in runs:
        if (len(healed) >= 2 and r[2] and not healed[-1][2] and healed[-1][1] - healed[-1][0] < 0.25 and healed[-2][2]
                and abs(cents(float(np.median(r[2])), float(np.median(healed[-2][2])))) < 35):
            healed.pop()
            healed[-1][1] = r[1]
            healed[-1][2] += r[2]
            healed[-1][3] = max(healed[-1][3], r[3])
        else:
            healed.append(r)
    return [[a, b, float(np.median(h)) if h else None, db] for a, b, h, db in healed]


def cmd_segments(a, rate, x):
    runs = segments(rate, x)
    notes = [r for r in runs if r[2] is not None and r[1] - r[0] >= 0.1]
    for r in runs:
        if r[1] - r[0] >= 0.06 or r[2] is not None:
            what = "silence" if r[2] is None else f"{r[2]:7.1f} Hz, peak window {r[3]:.1f} dB"
            print(f"  {r[0]:7.2f}-{r[1]:7.2f} s  {what}")
    failures = []
    if a.expect:
        want = [float(h) for h in a.expect.split(",")]
        got = [r[2] for r in notes]
        if len(got) != len(want) or any(abs(cents(g, w)) > 35 for g, w in zip(got, want)):
            failures.append(f"notes {', '.join(f'{g:.1f}' for g in got)} Hz, expected {a.expect}")
    if a.gaps and len(notes) >= 2:
        for i, want in enumerate(float(g) for g in a.gaps.split(",")):
            if i + 1 < len(notes):
                gap = notes[i + 1][0] - notes[i][1]
                print(f"  silence between notes {i + 1} and {i + 2}: {gap:.2f} s (expected {want} +- 0.3)")
                if abs(gap - want) > 0.3:
                    failures.append(f"silence of {gap:.2f} s between notes {i + 1} and {i + 2}, expected {want}")
    for h in (float(v) for v in (a.absent.split(",") if a.absent else [])):
        for r in runs:
            if r[2] is not None and abs(cents(r[2], h)) < 35:
                failures.append(f"{h} Hz sounds at {r[0]:.2f}-{r[1]:.2f} s")
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("command", choices=["pitch", "continuity", "segments"])
    ap.add_argument("wav")
    ap.add_argument("--expect-hz", type=float)
    ap.add_argument("--tol-cents", type=float, default=5.0)
    ap.add_argument("--start", type=float)
    ap.add_argument("--end", type=float)
    ap.add_argument("--hz", type=float)
    ap.add_argument("--reference-hz", type=float)
    ap.add_argument("--allow")
    ap.add_argument("--min-seconds", type=float)
    ap.add_argument("--expect")
    ap.add_argument("--absent")
    ap.add_argument("--gaps")
    a = ap.parse_args()
    try:
        rate, frames = read_wav(a.wav)
    except (OSError, ValueError) as e:
        print(f"FAIL: {e}")
        return 1
    if a.command == "continuity":
        return cmd_continuity(a, rate, frames)
    return {"pitch": cmd_pitch, "segments": cmd_segments}[a.command](a, rate, frames[:, 0])


if __name__ == "__main__":
    sys.exit(main())
