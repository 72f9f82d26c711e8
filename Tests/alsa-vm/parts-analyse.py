#!/usr/bin/env python3
"""The 16-part rig test's song and capture analysis (run-parts-live.sh).

  parts-analyse.py song OUT.mid      a format-0 song: a program change on every channel (GM style),
                                     then channel 1, 2, … 16 each play one note of their own, in turn
  parts-analyse.py analyse CAP.wav   finds every channel's note, and the channel-7 keyboard note,
                                     in the capture; exit 1 if one is missing
"""
import importlib.util
import os
import sys

import numpy as np


def sibling(name):
    """A helper module of this directory (its file name has a dash, so no plain import)."""
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), os.path.join(os.path.dirname(__file__), name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


midi = sibling("instrument-midi")
read_wav = sibling("instrument-analyse").read_wav

RATE = 48000
NOTES = [48 + 3 * c for c in range(16)]   # channel c+1 plays NOTES[c]: 130.8 Hz … 622 Hz, 3 semitones apart
KEYBOARD_NOTE = 100                       # channel 7 from VirMIDI
NOTE_MS, GAP_MS = 250, 100
AUDIBLE = 10 ** (-40 / 20)                # a note sounding: above -40 dBFS in its frequency bin
PROGRAMS = [0, 0, 33, 25, 48, 81, 16, 56, 89, 0, 4, 40, 105, 73, 114, 120]


def write_song(path):
    """One tick = 1 ms."""
    vlq = midi.vlq
    track = bytearray()
    for c in range(16):
        if c != 1:  # channel 2 stays on the synth
            track += vlq(0) + bytes([0xC0 | c, PROGRAMS[c]])
    delta = 10
    for c, note in enumerate(NOTES):
        track += vlq(delta) + bytes([0x90 | c, note, 100])
        track += vlq(NOTE_MS) + bytes([0x80 | c, note, 0])
        delta = GAP_MS
    midi.write_smf(path, track)


def hz(note):
    return 440 * 2 ** ((note - 69) / 12)


def loudest(x, f, window=4096):
    """Largest sine amplitude at f over Hann windows hopping by half a window."""
    w = np.hanning(window)
    t = np.arange(window) / RATE
    probe = np.exp(-2j * np.pi * f * t) * w
    best = 0.0
    for start in range(0, max(1, len(x) - window), window // 2):
        best = max(best, 2 * abs(np.dot(x[start:start + window], probe)) / w.sum())
    return best


def analyse(path):
    _, x = read_wav(path)
    fails = 0
    print(f"capture: {len(x) / RATE:.2f} s, peak {20 * np.log10(max(np.abs(x).max(), 1e-9)):.1f} dBFS")
    checks = [(f"channel {c + 1}", NOTES[c]) for c in range(16)] + [("keyboard on channel 7", KEYBOARD_NOTE)]
    for name, note in checks:
        a = loudest(x, hz(note))
        ok = a > AUDIBLE
        fails += not ok
        print(f"{'PASS' if ok else 'FAIL'}: {name}: note {note} ({hz(note):.1f} Hz) at {20 * np.log10(max(a, 1e-9)):.1f} dBFS")
    return fails


if __name__ == "__main__":
    if sys.argv[1] == "song":
        write_song(sys.argv[2])
    else:
        sys.exit(1 if analyse(sys.argv[2]) else 0)
