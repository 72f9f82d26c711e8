#!/usr/bin/env python3
"""Writes the seed corpus of the `soundfont` fuzz target (Tests/fuzz-corpus/soundfont/): small
SoundFonts made here, never copied from a real font. The SF3 seed's Ogg Vorbis stream is made by sox.

    Tests/hostile/make-soundfont-seeds.py [DIR]      (default Tests/fuzz-corpus/soundfont)
"""
import os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sf2writer as w

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "fuzz-corpus", "soundfont")
os.makedirs(out, exist_ok=True)


def write(name, font):
    with open(os.path.join(out, name), "wb") as f:
        f.write(font.bytes() if isinstance(font, w.Font) else font)


# One preset, one instrument, one looped sample.
write("minimal.sf2", w.minimal(frames=200, loop=(50, 150)))

# Global zones, ranges, modulators at both levels, two presets (one a drum kit), two samples.
f = w.minimal(frames=200, loop=(50, 150))
f.samples.append(("Second", 246, 446, 300, 400, 22050, 72, -5, 0, 1))
f.smpl += w.pcm(w.sine_points(200, period=50) + [0] * 46)
f.instruments = [("Layered", [
    ([w.gen(48, 30), w.gen(17, -250)], [(0x0081, 6, 80, 0, 0)]),
    ([w.gen(43, w.rng(0, 63)), w.gen(44, w.rng(1, 100)), w.gen(34, -1200), w.gen(53, 0)], [(0x0502, 48, 480, 0, 0)]),
    ([w.gen(43, w.rng(64, 127)), w.gen(58, 72), w.gen(57, 1), w.gen(54, 3), w.gen(53, 1)], []),
])]
f.presets = [
    ("Layered", 0, 5, [([w.gen(8, -1200)], [(0x00DB, 16, 100, 0x0081, 0)]), ([w.gen(43, w.rng(20, 100)), w.gen(41, 0)], [])]),
    ("Kit", 128, 0, [([w.gen(51, 2), w.gen(41, 0)], [(0x020E, 52, 1200, 0x0010, 0)])]),
]
write("zones-and-modulators.sf2", f)

# 24-bit samples.
f = w.minimal(frames=100, loop=(10, 90))
f.sm24 = bytes(range(146))
write("sm24.sf2", f)

# No terminal records anywhere they may be missing, and a phdr without its terminal.
f = w.minimal(frames=100, loop=(10, 90))
f.without_terminal = {"pgen", "pmod", "igen", "imod", "phdr"}
write("no-terminals.sf2", f)

# SF3: one Ogg Vorbis mono sample, and the smpl chunk odd and unpadded as FluidR3Mono_GM.sf3 has it.
with tempfile.TemporaryDirectory() as tmp:
    ogg = os.path.join(tmp, "s.ogg")
    subprocess.run(["sox", "-n", "-r", "22050", "-c", "1", "-C", "-1", ogg, "synth", "0.05", "sine", "440"], check=True)
    stream = open(ogg, "rb").read()
f = w.minimal()
f.version = (3, 1)
f.samples = [("Vorbis", 0, len(stream), 100, 900, 22050, 69, 0, 0, 0x11)]
f.smpl = stream if len(stream) % 2 else stream + b"\x00"
f.pad_smpl = False
write("vorbis.sf3", f)
print(out)
