"""Shared by scripts/gm-levels and scripts/gm-balance: writing and filtering Standard MIDI Files,
rendering them with AudioGraph and with FluidSynth + FluidR3_GM (the General MIDI reference), and
measuring levels. Standard library + numpy only; audio is read through sox."""
import os
import struct
import subprocess

import numpy as np
from smf import smf, variable_length

RATE = 48000
SOUNDFONT = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AUDIOGRAPH = os.path.join(ROOT, ".build", "release", "audiograph")
INSTRUMENT = os.path.join(ROOT, "Instruments", "default.json")


def write_smf(path, events, ticks_per_quarter=480, tempo=500000):
    """events: (seconds, bytes) in any order; one track, 120 BPM (a tick is 1/960 s)."""
    seconds_per_tick = tempo / 1e6 / ticks_per_quarter
    track = b"\x00\xff\x51\x03" + tempo.to_bytes(3, "big")
    now = 0
    for seconds, data in sorted(events, key=lambda e: e[0]):
        tick = int(round(seconds / seconds_per_tick))
        track += variable_length(tick - now) + bytes(data)
        now = tick
    track += b"\x00\xff\x2f\x00"
    with open(path, "wb") as f:
        f.write(smf(track, ticks_per_quarter))


def read_variable(data, i):
    value = 0
    while True:
        byte = data[i]
        i += 1
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, i


def filter_smf(source, destination, keep_channel=None, volume_at_start=100):
    """Copies a Standard MIDI File, dropping the note-ons and note-offs of every channel but
    `keep_channel` (0-based; None keeps all), and putting CC7 = `volume_at_start` on every channel
    at tick 0 (General MIDI's default, so that the measurement does not depend on a player's own
    default). Returns the set of channels with notes."""
    data = open(source, "rb").read()
    header_length = struct.unpack(">I", data[4:8])[0]
    out = bytearray(data[:8 + header_length])
    i = 8 + header_length
    channels = set()
    first = True
    while i + 8 <= len(data):
        kind, length = data[i:i + 4], struct.unpack(">I", data[i + 4:i + 8])[0]
        body = data[i + 8:min(len(data), i + 8 + length)]
        i += 8 + length
        if kind != b"MTrk":
            continue
        track = bytearray()
        if first and volume_at_start is not None:
            for c in range(16):
                track += b"\x00" + bytes([0xB0 | c, 7, volume_at_start])
            first = False
        j, running, pending = 0, 0, 0
        while j < len(body):
            delta, j = read_variable(body, j)
            pending += delta
            status = running
            if body[j] >= 0x80:
                status = body[j]
                j += 1
            if status < 0xF0:
                running = status  # real files keep running status across meta events; so does this
            if status == 0xFF:
                kind_byte = body[j]
                size, k = read_variable(body, j + 1)
                event = bytes([0xFF, kind_byte]) + body[j + 1:k + size]
                j = k + size
            elif status in (0xF0, 0xF7):
                size, k = read_variable(body, j)
                event = bytes([status]) + body[j:k + size]
                j = k + size
            else:
                count = 1 if (status & 0xF0) in (0xC0, 0xD0) else 2
                params = body[j:j + count]
                j += count
                event = bytes([status]) + params
                command, channel = status & 0xF0, status & 0x0F
                if command in (0x80, 0x90):
                    if command == 0x90 and params[1] > 0:
                        channels.add(channel)
                    if keep_channel is not None and channel != keep_channel:
                        continue
            track += variable_length(pending) + event
            pending = 0
            if event[:2] == b"\xff\x2f":
                break
        out += b"MTrk" + struct.pack(">I", len(track)) + track
    with open(destination, "wb") as f:
        f.write(out)
    return channels


def render_audiograph(midi, wav, extra=()):
    # As FluidSynth's side: reverb and chorus sends off, and no limiter (its output is float, unclipped).
    extra = ["--set", "fx.enabled=off", "--set", "master.limiter.enabled=off", *extra]
    subprocess.run([AUDIOGRAPH, "render", "--instrument", INSTRUMENT, "--midi", midi, "--out", wav, "--rate", str(RATE), *extra],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def render_fluidsynth(midi, wav):
    # Reverb and chorus off, unity gain, float samples (no clipping): soundfont2.md §9.
    subprocess.run(["fluidsynth", "-ni", "-q", "-R", "0", "-C", "0", "-g", "1.0", "-r", str(RATE), "-O", "float",
                    "-F", wav, SOUNDFONT, midi], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def read_audio(wav, remove=True):
    """Stereo float frames (n, 2) at the file's rate; the file is deleted once read (a song's
    float WAV is tens of MB, and a report renders hundreds)."""
    raw = subprocess.run(["sox", wav, "-t", "f32", "-c", "2", "-"], check=True, capture_output=True).stdout
    if remove:
        os.remove(wav)
    return np.frombuffer(raw, dtype=np.float32).reshape(-1, 2).astype(np.float64)


def decibels(x):
    """RMS of both channels, dBFS (−200 for silence)."""
    if len(x) == 0:
        return -200.0
    mean_square = float(np.mean(x * x))
    return 10 * np.log10(mean_square) if mean_square > 0 else -200.0


def window(x, start, seconds):
    a = int(start * RATE)
    return x[a:a + int(seconds * RATE)]
