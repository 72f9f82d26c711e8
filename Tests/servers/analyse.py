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
      buffer size; a jump within 150 ms of one is not counted either. --xruns-at T,...: moments
      (seconds into the recording) at which the server reported a cycle lost (jackd: a client
      "was not finished" at the cycle's end), passed only when the first channel's client
      measured its own callback under one period at worst: such a cycle was lost to scheduling,
      and a late client makes the recorder tear the *other* clients' blocks, so a jump up to
      200 ms before the report (20 ms after) is the server's, reported and not counted. A jump
      with no xrun report near it still counts. The times are reckoned from the recorder's launch,
      as --allow's are: its start-up (under 150 ms) and the log's lag (4-40 ms) set the window.
  segments WAV [--expect HZ,HZ,...] [--absent HZ,...] [--gaps S,...]
      The recording as a sequence of notes: per 20 ms window, silence (< -50 dBFS) or the
      dominant frequency; runs of the same note are printed with their times (a dropout under
      250 ms inside a note does not split it). --expect: the notes, in order (within 35 cents);
      --absent: frequencies that must never dominate; --gaps: the silences between consecutive
      notes, in seconds (within 0.3 s).

  onsets WAV --notes HZ,HZ,... --spacing FRAMES [--tolerance FRAMES] [--cycle FRAMES]
      A sequence that repeats the notes in the order given, one every FRAMES (a JACK MIDI
      sequencer's loop): each note's envelope by complex demodulation at its own frequency
      (a 20 ms Hann low-pass: the same smoothing for every note), its onsets where it rises through
      half its peak (to a fraction of a frame); the onsets must take the notes in turn, FRAMES
      apart within the tolerance (default 8 frames: two frequencies' envelopes rise a few frames
      apart, 4.4 for C4 and G4; the same note's onsets within 1 frame:
      sample-accurate placement; a note placed on a period boundary instead would be up to a
      period off). --cycle: JACK's buffer size; an interval off by whole cycles is a cycle the graph
      lost (an xrun), reported and taken out.

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
    if amplitude == 0:  # a few loud samples around silence: no tone to judge
        return [], (end - start) / rate, 0.0, 0.0
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
        ref, ref_seconds, ref_amplitude, _ = discontinuities(frames[:, 1], a.reference_hz, rate)
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
    if a.xruns_at:
        # Stamped when the server's log line is read (4-40 ms after the cycle, measured on a
        # loaded machine) and reckoned from the recorder's launch (it records from a little later).
        lost = [float(t) for t in a.xruns_at.split(",")]
        at_xrun = [e for e in events if e not in shared and any(-0.02 < m - e[0] < 0.2 for m in lost)]
        for t, n in at_xrun:
            print(f"  discontinuity at {t:.3f} s: at a cycle the server reported lost (xrun): the scheduling's, not counted")
        shared += at_xrun
    ours = len(events) - len(shared)
    failures = []
    if a.reference_hz and ref_amplitude == 0 and ours:
        # The reference client's tone is not in the recording (the machine kept it from the
        # server): there is nothing to tell the server's jumps from ours by.
        print(f"INCONCLUSIVE: the reference client's tone is missing from the recording; {ours} of ours not judged")
        ours = 0
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


def windows(rate, x, window=0.02):
    """Per 20 ms window: (start s, FFT peak hz or None when quieter than -50 dB, dB)."""
    n = int(window * rate)
    marks = []
    for i in range(0, len(x) - n + 1, n):
        rms = float(np.sqrt(np.mean(x[i:i + n] ** 2)))
        db = 20 * math.log10(rms) if rms > 0 else -200
        hz = peak_hz(x[i:i + 4 * n], rate) if db > -50 and i + 4 * n <= len(x) else None
        marks.append((i / rate, hz, db))
    return marks


def segments(marks, window=0.02):
    """Runs of sound or of silence: [start_s, end_s, median hz or None, loudest window dB]. A run is
    split by silence only, and a silence shorter than 250 ms inside a sound (a dropout) does not
    split it: a server starved by a busy machine chops a note into pieces whose 20 ms windows read
    tens of cents off, and it is still one note (its pitch is the median of its windows)."""
    runs = []  # [start, end, [hz...], db]
    for t, hz, db in marks:
        last = runs[-1] if runs else None
        if last is not None and (hz is None) == (not last[2]):
            last[1] = t + window
            if hz is not None:
                last[2].append(hz)
            last[3] = max(last[3], db)
        else:
            runs.append([t, t + window, [hz] if hz is not None else [], db])
    healed = []
    for r in runs:
        if len(healed) >= 2 and r[2] and not healed[-1][2] and healed[-1][1] - healed[-1][0] < 0.25:
            healed.pop()
            healed[-1][1] = r[1]
            healed[-1][2] += r[2]
            healed[-1][3] = max(healed[-1][3], r[3])
        else:
            healed.append(r)
    return [[a, b, float(np.median(h)) if h else None, db] for a, b, h, db in healed]


def cmd_segments(a, rate, x):
    marks = windows(rate, x)
    runs = segments(marks)
    notes = [r for r in runs if r[2] is not None and r[1] - r[0] >= 0.1]
    for r in runs:
        if r[1] - r[0] >= 0.06 or r[2] is not None:
            what = "silence" if r[2] is None else f"{r[2]:7.1f} Hz (median), peak window {r[3]:.1f} dB"
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
    # A note that must not sound is looked for window by window (it could hide inside another
    # note's run, as a chord): 100 ms of windows whose strongest partial is it is a failure.
    for h in (float(v) for v in (a.absent.split(",") if a.absent else [])):
        streak = 0
        for t, hz, _ in marks:
            streak = streak + 1 if hz is not None and abs(cents(hz, h)) < 35 else 0
            if streak == 5:
                failures.append(f"{h} Hz sounds at {t - 0.08:.2f} s")
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


def note_onsets(x, rate, hz):
    """Times (in frames, fractional) where the note at hz rises through half its peak envelope."""
    n = np.arange(len(x))
    z = x * np.exp(-2j * np.pi * hz * n / rate)
    window = np.hanning(int(0.02 * rate))
    envelope = np.abs(np.convolve(z, window / window.sum(), mode="same"))
    half = 0.5 * envelope.max()
    low = envelope < 0.1 * envelope.max()
    found, last = [], None
    for i in np.nonzero((envelope[1:] >= half) & (envelope[:-1] < half))[0]:
        if last is not None and not low[last:i].any():
            continue  # a ripple on the same note: a new onset needs a fall to near silence first
        last = i
        found.append(i + (half - envelope[i]) / (envelope[i + 1] - envelope[i]))
    return found


def cmd_onsets(a, rate, x):
    notes = [float(h) for h in a.notes.split(",")]
    events = sorted((t, k) for k, hz in enumerate(notes) for t in note_onsets(x, rate, hz))
    # The first and last may be cut by the recording's edges.
    events = events[1:-1] if len(events) > 3 else events
    print(f"{a.wav}: {len(events)} onsets: " + " ".join(f"{notes[k]:.0f}Hz@{t:.1f}" for t, k in events[:12]))
    failures = []
    if len(events) < 4:
        failures.append(f"only {len(events)} onsets")
    errors = []
    for (t0, k0), (t1, k1) in zip(events, events[1:]):
        if k1 != (k0 + 1) % len(notes):
            failures.append(f"{notes[k1]} Hz at frame {t1:.1f} follows {notes[k0]} Hz: not in turn")
        errors.append(t1 - t0 - a.spacing)
    # The same note's onsets are compared exactly; different notes' within the tolerance (the
    # demodulated envelopes of two frequencies rise a few frames apart: a constant bias per pair).
    same = [t1 - t0 - len(notes) * a.spacing for (t0, _), (t1, _) in zip(events, events[len(notes):])]
    for name, values, limit in (("consecutive notes", errors, a.tolerance), ("the same note", same, 1.0)):
        if not values:
            continue
        # A whole JACK cycle lost by the graph (an xrun: the recorder and the sequencer both skip
        # it) shifts every later onset by exactly --cycle frames; a note placed on a cycle
        # boundary instead would be off by some other amount. At most two such losses.
        lost = 0
        for i, v in enumerate(values):
            k = round(v / a.cycle) if a.cycle else 0
            if k != 0 and abs(v - k * a.cycle) <= limit:
                values[i] -= k * a.cycle
                lost += 1
        if lost:
            print(f"  {name}: {lost} interval(s) off by whole {a.cycle:.0f}-frame cycles (lost in the graph), compared without them")
        if lost > 2 * len(notes):
            failures.append(f"{name}: {lost} intervals off by whole cycles: too many xruns to judge")
        worst = max(values, key=abs)
        print(f"  {name}: intervals {worst:+.2f} frames off at worst, {np.mean(values):+.2f} on average ({len(values)})")
        if abs(worst) > limit:
            failures.append(f"{name}: an interval {worst:+.2f} frames off, more than {limit}")
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("command", choices=["pitch", "continuity", "segments", "onsets"])
    ap.add_argument("wav")
    ap.add_argument("--expect-hz", type=float)
    ap.add_argument("--tol-cents", type=float, default=5.0)
    ap.add_argument("--start", type=float)
    ap.add_argument("--end", type=float)
    ap.add_argument("--hz", type=float)
    ap.add_argument("--reference-hz", type=float)
    ap.add_argument("--allow")
    ap.add_argument("--xruns-at")
    ap.add_argument("--min-seconds", type=float)
    ap.add_argument("--expect")
    ap.add_argument("--absent")
    ap.add_argument("--gaps")
    ap.add_argument("--notes")
    ap.add_argument("--spacing", type=float)
    ap.add_argument("--tolerance", type=float, default=8.0)
    ap.add_argument("--cycle", type=float, default=0.0)
    a = ap.parse_args()
    try:
        rate, frames = read_wav(a.wav)
    except (OSError, ValueError) as e:
        print(f"FAIL: {e}")
        return 1
    if a.command == "continuity":
        return cmd_continuity(a, rate, frames)
    return {"pitch": cmd_pitch, "segments": cmd_segments, "onsets": cmd_onsets}[a.command](a, rate, frames[:, 0])


if __name__ == "__main__":
    sys.exit(main())
