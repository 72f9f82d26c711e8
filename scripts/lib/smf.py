"""Standard MIDI File bytes, for the scripts and test helpers that write songs (gmtools.py,
Tests/alsa-vm/instrument-midi.py, Tests/servers/song.py, Tests/hostile/make-hostile-files.py).
Standard library only: it also runs inside the alsa-vm guest."""
import struct


def variable_length(value):
    """`value` as a MIDI variable-length quantity: 7 bits a byte, most significant first."""
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.insert(0, 0x80 | (value & 0x7F))
        value >>= 7
    return bytes(out)


def smf(track, ticks_per_quarter):
    """A format-0 file whose one track is `track` (delta-timed events, end of track included)."""
    return b"MThd" + struct.pack(">IHHH", 6, 0, 1, ticks_per_quarter) + b"MTrk" + struct.pack(">I", len(track)) + bytes(track)
