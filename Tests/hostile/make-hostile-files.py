#!/usr/bin/env python3
"""Builds the hostile inputs of issue 10 into a directory (default: ./hostile-files), so the
before/after figures (max RSS, time, outcome) can be reproduced:

    Tests/hostile/make-hostile-files.py /tmp/hostile && Tests/hostile/measure.sh /tmp/hostile
"""
import base64, os, struct, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
from smf import smf, variable_length as vlq

out = sys.argv[1] if len(sys.argv) > 1 else "hostile-files"
os.makedirs(out, exist_ok=True)

def write(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


# 10: one huge delta (0x0FFFFFFF ticks at 1 tick per quarter = 134 million seconds) before a note.
write("huge-delta.mid", smf(vlq(0x0FFFFFFF) + b"\x90\x3c\x64" + b"\x00\xff\x2f\x00", 1))
# 10: a note held for 77 hours (note-off after 554,400 quarter notes at 120 bpm).
write("held-77h.mid", smf(b"\x00\x90\x3c\x64" + vlq(554_400 * 1) + b"\x80\x3c\x00\x00\xff\x2f\x00", 1))
# 6: 8 M controller messages then a note, all at t = 0 (running status keeps it small).
flood = bytearray(b"\x00\xb0\x01\x40") + b"\x00\x01\x40" * (8_000_000 - 1) + b"\x00\x90\x3c\x64" + vlq(2) + b"\x80\x3c\x00\x00\xff\x2f\x00"
write("cc-flood-8m.mid", smf(bytes(flood), 1))

def wav(rate, channels, frames, data_frames=None):
    data_frames = frames if data_frames is None else data_frames
    block = 2 * channels
    fmt = struct.pack("<HHIIHH", 1, channels, rate, (rate * block) & 0xFFFFFFFF, block, 16)
    body = bytes(data_frames * block)
    data = b"data" + struct.pack("<I", frames * block) + body
    riff = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + data
    return b"RIFF" + struct.pack("<I", len(riff)) + riff

# 11: a 20 kB WAV claiming 2,147,483,647 Hz.
write("rate-2147483647.wav", wav(2_147_483_647, 1, 10_000))
# 9: a WAV whose header says 44,100 frames but holds 19,978.
write("truncated.wav", wav(44_100, 1, 44_100, data_frames=19_978))
# 9: a 6-channel sample.
write("six-channels.wav", wav(44_100, 6, 4_410))

# 11: a 242-byte-class FLAC whose STREAMINFO claims 5e8 frames (no audio frames follow).
streaminfo = bytearray(34)
struct.pack_into(">HH", streaminfo, 0, 4096, 4096)
total = 500_000_000
rate, channels, bits = 44_100, 1, 16
# 20 bits rate, 3 bits channels-1, 5 bits bps-1, 36 bits total samples
packed = (rate << 44) | ((channels - 1) << 41) | ((bits - 1) << 36) | total
streaminfo[10:18] = packed.to_bytes(8, "big")
write("claims-5e8-frames.flac", b"fLaC" + bytes([0x80]) + (34).to_bytes(3, "big") + bytes(streaminfo) + bytes(200))

# 11: a 10,000-layer preset.
header = '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n'
layer = ('<dict><key>ID</key><integer>{i}</integer><key>Zones</key><array><dict><key>ID</key><integer>0</integer>'
         '<key>waveform</key><integer>-2</integer><key>min key</key><integer>0</integer><key>max key</key>'
         '<integer>127</integer><key>root key</key><integer>69</integer></dict></array></dict>')
def preset(layers, top=""):
    return (header + "<dict>" + top + "<key>Instrument</key><dict><key>Layers</key><array>" + layers +
            "</array></dict><key>name</key><string>hostile</string><key>type</key><integer>1635085685</integer>"
            "<key>subtype</key><integer>1935764848</integer></dict></plist>\n").encode()
write("layers-10000.aupreset", preset("".join(layer.format(i=i) for i in range(10_000))))
# 3: NaN coarse tune inside the `data` blob (params 901 coarse, 902 fine).
blob = struct.pack(">III", 0, 0, 2) + struct.pack(">I", 901) + struct.pack(">f", float("nan")) + struct.pack(">I", 902) + struct.pack(">f", float("nan"))
write("nan-blob.aupreset", preset(layer.format(i=0), top="<key>data</key><data>" + base64.b64encode(blob).decode() + "</data>"))
# 3: envelope stage time 1e308, LFO rate 1e308, pitch-bend scale 1.7e308; 5: zone gain 1e308, resonance -1e308.
articulated = ('<dict><key>ID</key><integer>0</integer>'
    '<key>Envelopes</key><array><dict><key>ID</key><integer>0</integer><key>Stages</key><array>'
    '<dict><key>stage</key><integer>1</integer><key>time</key><real>1e308</real></dict>'
    '<dict><key>stage</key><integer>5</integer><key>time</key><real>1e308</real></dict></array></dict></array>'
    '<key>Filters</key><dict><key>enabled</key><true/><key>cutoff</key><real>2000</real><key>resonance</key><real>-1e308</real></dict>'
    '<key>LFOs</key><array><dict><key>ID</key><integer>0</integer><key>rate</key><real>1e308</real></dict></array>'
    '<key>Connections</key><array>'
    '<dict><key>ID</key><integer>0</integer><key>source</key><integer>224</integer><key>destination</key><integer>816840704</integer><key>scale</key><real>1.7e308</real></dict>'
    '<dict><key>ID</key><integer>1</integer><key>source</key><integer>268435456</integer><key>control</key><integer>1</integer><key>destination</key><integer>816840704</integer><key>scale</key><real>1e308</real></dict>'
    '</array>'
    '<key>Zones</key><array><dict><key>ID</key><integer>0</integer><key>waveform</key><integer>-2</integer>'
    '<key>gain</key><real>1e308</real><key>root key</key><integer>69</integer></dict></array></dict>')
write("absurd-numbers.aupreset", preset(articulated))

# 2: instrument file with a parameter beyond Int's range, and one beyond Double's.
write("gain-1e19.json", b'{"name":"x","parameters":{"master.gain":1e19}}')
write("gain-1e400.json", b'{"name":"x","parameters":{"master.gain":1e400}}')
write("syntax-error.json", b'{"name":"x",\n  "parameters": {"master.gain": 3,,}}')
write("dev-zero-preset.json", b'{"name":"x","preset":"/dev/zero"}')
# Issue 24: hostile SoundFonts (sf2writer.py writes exactly what it is given).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sf2writer as sf

good = sf.minimal()
write("sf2-truncated.sf2", good.bytes()[:-40])                       # pdta cut short mid-chunk
f = sf.minimal()
f.presets.append(("Huge Bag", 0, 1, []))
raw = bytearray(f.bytes())
phdr = raw.find(b"phdr") + 8
struct.pack_into("<H", raw, phdr + 38 + 24, 0xFFFF)                     # second preset's bag index: 65535
write("sf2-bag-index-overflow.sf2", bytes(raw))
f = sf.minimal()
f.samples = [("Beyond", 0, 0xFFFFFFF0, 10, 20, 44100, 60, 0, 0, 1)]     # zone's sample ends 4 G frames past the data
f.instruments[0][1][0][0].append(sf.gen(53, 60000))                      # a second sampleID: dropped as "after the terminal"
write("sf2-sample-outside-data.sf2", f.bytes())
f = sf.minimal(loop=(0xFFFFFFF0, 0xFFFFFFFE))                            # loop far outside the sample
write("sf2-loop-outside.sf2", f.bytes())
f = sf.minimal()
f.instruments = [("Absurd", [([sf.gen(g, v) for g, v in [(17, 32767), (8, -32768), (48, 32767), (51, -32768), (56, 32767),
                                                         (34, 32767), (38, -32768), (58, 300), (54, 7), (57, -1)]] + [sf.gen(53, 0)], [])])]
f.presets = [("Absurd", 0, 0, [([sf.gen(48, -32768), sf.gen(52, 32767), sf.gen(41, 0)], [(0x0081, 48, 32767, 0x0081, 0)])])]
write("sf2-generators-out-of-range.sf2", f.bytes())
f = sf.minimal()
f.samples = [("Empty", 100, 100, 100, 100, 44100, 60, 0, 0, 1)]            # 0-length sample
write("sf2-zero-length-sample.sf2", f.bytes())
f = sf.minimal()
f.presets.append(("Last", 0, 1, [([sf.gen(41, 0)], [])]))
f.without_terminal = {"phdr"}
write("sf2-phdr-no-terminal.sf2", f.bytes())
raw = bytearray(sf.minimal().bytes())
struct.pack_into("<I", raw, raw.find(b"smpl") + 4, 0xFFFFFFF0)           # smpl declares 4 GB in a 1 kB file
write("sf2-huge-chunk.sf2", bytes(raw))
raw = bytearray(sf.minimal().bytes())
struct.pack_into("<I", raw, raw.find(b"pdta") - 4, 0x7FFFFFFF)   # pdta LIST claims 2 GB
write("sf2-list-lies.sf2", bytes(raw))
raw = bytearray(sf.minimal().bytes())
struct.pack_into("<I", raw, raw.find(b"INFO") - 4, 2)                # INFO LIST too small to hold its type
write("sf2-list-without-type.sf2", bytes(raw))
f = sf.minimal()
f.version = (3, 1)
f.samples = [("Garbage", 0, 400, 10, 20, 44100, 60, 0, 0, 0x11)]         # "Vorbis" stream of random bytes
f.smpl = os.urandom(400)
write("sf3-garbage-vorbis.sf3", f.bytes())
page = bytearray(b"OggS\0\x02" + b"\0" * 20 + b"\x01\x1e" + b"\x01vorbis" + struct.pack("<IBI", 0, 1, 44100) + b"\0" * 13)
last = bytearray(b"OggS\0\x04" + struct.pack("<q", 1 << 40) + b"\0" * 12 + b"\x01\x04" + b"junk")
f.samples = [("Liar", 0, len(page) + len(last), 10, 20, 44100, 60, 0, 0, 0x11)]  # Vorbis header, then a page claiming 2^40 frames
f.smpl = bytes(page + last)
write("sf3-vorbis-claims-2e40-frames.sf3", f.bytes())
import subprocess, tempfile
with tempfile.TemporaryDirectory() as tmp:                               # a real Vorbis stream whose audio packets are garbage
    subprocess.run(["sox", "-n", "-r", "22050", "-c", "1", os.path.join(tmp, "s.ogg"), "synth", "3", "noise"], check=True)
    stream = bytearray(open(os.path.join(tmp, "s.ogg"), "rb").read())
pages = [i for i in range(len(stream)) if stream[i:i + 4] == b"OggS"]
assert len(pages) > 5, pages
stream[pages[3] + 40:pages[-1]] = os.urandom(pages[-1] - pages[3] - 40)   # headers and the last page intact
f.samples = [("Corrupt", 0, len(stream), 10, 20, 22050, 60, 0, 0, 0x11)]
f.smpl = bytes(stream) + (b"\0" if len(stream) % 2 else b"")
write("sf3-vorbis-corrupt-packets.sf3", f.bytes())
f = sf.minimal()
f.presets = [("P%d" % i, 0, i % 128, [([sf.gen(41, 0)], [])]) for i in range(70000)]   # more presets than 16-bit indices allow
write("sf2-70000-presets.sf2", f.bytes())
f = sf.minimal()
f.presets = [("Many gens", 0, 0, [([sf.gen(17, i) for i in range(65000)] + [sf.gen(41, 0)], [])])]  # one zone, 65,000 generators
write("sf2-65000-generators.sf2", f.bytes())

# 12: a FIFO (open() on it would block for ever).
fifo = os.path.join(out, "fifo")
if not os.path.exists(fifo):
    os.mkfifo(fifo)

# Issue 21: an escape sequence in a key (it used to retitle the terminal), a NUL inside a path (it
# used to cut the path), a preset on a symlink loop (it used to say "not found" and blame the
# instrument file), a song that the output names through a hard link, and a FIFO as the output.
write("escape-key.json", b'{"name":"x","parameters":{"\\u001b]0;pwned\\u0007":1}}')
write("nul-path.json", b'{"name":"x","preset":"/etc/hostname\\u0000.aupreset"}')
for a, b in [("loop-a.aupreset", "loop-b.aupreset"), ("loop-b.aupreset", "loop-a.aupreset")]:
    if not os.path.lexists(os.path.join(out, a)):
        os.symlink(b, os.path.join(out, a))
write("song.mid", smf(b"\x00\x90\x3c\x64\x60\x80\x3c\x00\x00\xff\x2f\x00", 96))
if not os.path.exists(os.path.join(out, "song-link.wav")):
    os.link(os.path.join(out, "song.mid"), os.path.join(out, "song-link.wav"))
if not os.path.exists(os.path.join(out, "fifo.wav")):
    os.mkfifo(os.path.join(out, "fifo.wav"))

# Issue 21, memory. A sample preset: one looped zone of `wav` on key 60 (or the whole keyboard).
def sample_preset(wav, whole_keyboard=True):
    zone = ('<dict><key>ID</key><integer>0</integer><key>waveform</key><integer>1</integer>'
            '<key>min key</key><integer>{}</integer><key>max key</key><integer>{}</integer>'
            '<key>root key</key><integer>60</integer><key>loop enabled</key><true/></dict>').format(
                0 if whole_keyboard else 60, 127 if whole_keyboard else 60)
    layers = '<dict><key>ID</key><integer>0</integer><key>Zones</key><array>' + zone + '</array></dict>'
    top = '<key>file-references</key><dict><key>Sample:1</key><string>' + wav + '</string></dict>'
    return preset(layers, top=top)

def sine_wav(name, seconds, rate=44100, channels=1):
    """16-bit PCM; a 441 Hz sine (period 100 frames) written period by period."""
    import math
    period = b"".join(struct.pack("<h", int(12000 * math.sin(2 * math.pi * i / 100))) * channels for i in range(100))
    frames = int(seconds * rate) // 100 * 100
    block = 2 * channels
    fmt = struct.pack("<HHIIHH", 1, channels, rate, rate * block, block, 16)
    with open(os.path.join(out, name), "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", 36 + frames * block) + b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt)
        f.write(b"data" + struct.pack("<I", frames * block))
        chunk = period * 4410
        left = frames // 100
        while left > 0:
            n = min(left, 4410)
            f.write(chunk[:n * len(period)])
            left -= n

# A song: key 60 for one second.
write("note-60.mid", smf(b"\x00\x90\x3c\x64" + vlq(2) + b"\x80\x3c\x00\x00\xff\x2f\x00", 2))
# A 100 MB sample (50 M frames, 19 min at 44.1 kHz) played across the keyboard: levels for all of it
# asked 2.8 GB (52 bytes a frame, besides the sample itself).
sine_wav("big-sample.wav", 50_000_000 / 44100)
write("big-sample.aupreset", sample_preset("big-sample.wav"))
write("big-sample.json", b'{"name":"big","preset":"big-sample.aupreset"}')
# 128 presets on one 10 MB sample (5 M frames): loaded and band-limited 128 times, 2.8 GB.
sine_wav("shared-10mb.wav", 5_000_000 / 44100)
for i in range(128):
    write("shared-%03d.aupreset" % i, sample_preset("shared-10mb.wav", whole_keyboard=False))
write("shared-128.json", ('{"name":"shared","programs":[' + ",".join('"shared-%03d.aupreset"' % i for i in range(128))
                          + '],"channels":{"drums":[]}}').encode())
# A song striking key 60 on every program 0…127 (one note each, one after another).
song = b"".join(vlq(0) + bytes([0xC0, i]) + vlq(0) + b"\x90\x3c\x64" + vlq(1) + b"\x80\x3c\x00" for i in range(128))
write("note-60-each-program.mid", smf(song + b"\x00\xff\x2f\x00", 8))
# A 512 MB input: 8 channels at 768 kHz, 16-bit (32 M frames, 44 s); whole, decoded and resampled, 4.3 GB.
sine_wav("big-input-8ch-768k.wav", 33_554_400 / 768000, rate=768000, channels=8)
print(out)
