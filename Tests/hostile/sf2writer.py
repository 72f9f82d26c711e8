"""A tiny SoundFont 2 writer for the hostile files and the fuzz seed corpus: it writes exactly what it
is given (invalid values, missing terminal records, lying sizes included), so the loader's checks can
be exercised. Used by make-hostile-files.py and make-soundfont-seeds.py."""
import struct


def chunk(cid, data, pad=True):
    out = cid + struct.pack("<I", len(data)) + data
    return out + (b"\0" if pad and len(data) % 2 else b"")


def lst(ltype, data, pad=True):
    return chunk(b"LIST", ltype + data, pad)


def zstr(text):
    b = text.encode("latin-1") + b"\0"
    return b + (b"\0" if len(b) % 2 else b"")


def name20(text):
    return text.encode("latin-1")[:19].ljust(20, b"\0")


def gen(gid, amount):
    return (gid, amount & 0xFFFF)


def rng(lo, hi):
    return lo | hi << 8


class Font:
    """presets: [(name, bank, program, [zone])]; instruments: [(name, [zone])];
    zone = (gens [(id, u16)], mods [(src, dest, amount, amtsrc, trans)]);
    samples: [(name, start, end, loopstart, loopend, rate, pitch, correction, link, type)]."""

    def __init__(self):
        self.version = (2, 4)
        self.name = "Hostile"
        self.presets = []
        self.instruments = []
        self.samples = []
        self.smpl = b""
        self.sm24 = None
        self.info_extra = []
        self.without_terminal = set()
        self.riff_size = None
        self.pad_smpl = True

    def tables(self, headers, preset):
        h, bag, mod, gn = bytearray(), bytearray(), bytearray(), bytearray()
        nb = ng = nm = 0

        def header(name, bank, prog):
            nonlocal h
            if preset:
                h += name20(name) + struct.pack("<HHH", prog, bank, nb & 0xFFFF) + b"\0" * 12
            else:
                h += name20(name) + struct.pack("<H", nb & 0xFFFF)

        for hd in headers:
            header(hd[0], *(hd[1:3] if preset else (0, 0)))
            for gens, mods in hd[-1]:
                bag += struct.pack("<HH", ng & 0xFFFF, nm & 0xFFFF)
                nb += 1
                for gid, amount in gens:
                    gn += struct.pack("<HH", gid, amount & 0xFFFF)
                ng += len(gens)
                for m in mods:
                    mod += struct.pack("<HHhHH", m[0], m[1], m[2], m[3], m[4])
                nm += len(mods)
        ids = ("phdr", "pbag", "pmod", "pgen") if preset else ("inst", "ibag", "imod", "igen")
        if ids[0] not in self.without_terminal:
            header("EOP" if preset else "EOI", 0, 0)
        bag += struct.pack("<HH", ng & 0xFFFF, nm & 0xFFFF)
        if ids[2] not in self.without_terminal:
            mod += b"\0" * 10
        if ids[3] not in self.without_terminal:
            gn += b"\0" * 4
        return [chunk(ids[0].encode(), bytes(h)), chunk(ids[1].encode(), bytes(bag)), chunk(ids[2].encode(), bytes(mod)),
                chunk(ids[3].encode(), bytes(gn))]

    def bytes(self):
        info = chunk(b"ifil", struct.pack("<HH", *self.version)) + chunk(b"isng", zstr("EMU8000")) + \
            chunk(b"INAM", zstr(self.name))
        for cid, data in self.info_extra:
            info += chunk(cid, data)
        sdta = chunk(b"smpl", self.smpl, pad=self.pad_smpl)
        if self.sm24 is not None:
            sdta += chunk(b"sm24", self.sm24)
        shdr = b""
        for s in self.samples:
            shdr += name20(s[0]) + struct.pack("<IIIIIBbHH", *s[1:])
        if "shdr" not in self.without_terminal:
            shdr += name20("EOS") + b"\0" * 26
        pdta = b"".join(self.tables(self.presets, True) + self.tables(self.instruments, False)) + chunk(b"shdr", shdr)
        body = lst(b"INFO", info) + lst(b"sdta", sdta, pad=self.pad_smpl) + lst(b"pdta", pdta)
        size = self.riff_size if self.riff_size is not None else 4 + len(body)
        return b"RIFF" + struct.pack("<I", size) + b"sfbk" + body


def pcm(points):
    return b"".join(struct.pack("<h", p) for p in points)


def sine_points(frames, period=100, amplitude=12000):
    import math
    return [int(amplitude * math.sin(2 * math.pi * i / period)) for i in range(frames)]


def minimal(frames=400, loop=(100, 300), pitch=69, rate=44100):
    """One preset 0:0 → one instrument → one looped sine sample (period 100 frames, 46 zero points after)."""
    f = Font()
    f.presets = [("Sine", 0, 0, [([gen(41, 0)], [])])]
    f.instruments = [("Sine", [([gen(54, 1), gen(53, 0)], [])])]
    f.samples = [("Sine", 0, frames, loop[0], loop[1], rate, pitch, 0, 0, 1)]
    f.smpl = pcm(sine_points(frames) + [0] * 46)
    return f
