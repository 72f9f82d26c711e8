#!/usr/bin/env python3
"""MIDI and clock helpers for the live-instrument rig test (run-instrument-live.sh).

Stdlib only (ctypes on libasound), so it runs unchanged inside the alsa-vm guest.

  song OUT.mid                      write the test song (host side): six notes on channel 2
  source NAME CHANNEL NOTE...       a sequencer client with a readable MIDI port NAME (a hot-plugged
                                    source): prints 'ready C:P', waits until someone subscribes
                                    ('subscribed'), sends note-ons for NOTE... ('chord sent') and
                                    then holds them until it is killed
  stream DEST CHANNEL NOTE COUNT INTERVAL LENGTH
                                    connects a port to DEST (client:port) and sends COUNT notes,
                                    INTERVAL +- 25 ms apart (seeded), LENGTH s long, logging each
                                    note-on's send time (CLOCK_MONOTONIC before and after the send)
  clock STATUSFILE STOPFILE         samples a PCM substream's /proc status: hw_ptr between two
                                    CLOCK_MONOTONIC reads, plus CLOCK_REALTIME, until STOPFILE exists

Every log line carries 'mono=<ns>' (CLOCK_MONOTONIC), the clock the host analysis uses to put
MIDI send times and capture frames on one time line.
"""
import ctypes
import os
import random
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
from smf import smf, variable_length as vlq  # noqa: E402

SONG_NOTES = [57, 62, 66, 71, 74, 79]  # A3 D4 F#4 B4 D5 G5: distinct, well apart in pitch
SONG_NOTE_MS = 240
SONG_GAP_MS = 120


def write_song(path):
    track = bytearray()
    delta = 0
    for note in SONG_NOTES:
        track += vlq(delta) + bytes([0x91, note, 100])
        track += vlq(SONG_NOTE_MS) + bytes([0x81, note, 0])
        delta = SONG_GAP_MS
    write_smf(path, track)


def write_smf(path, events):
    """Format-0 SMF around `events` (delta-timed bytes), 480 ticks per quarter at 480000 us per
    quarter: one tick = 1 ms."""
    track = b"\x00\xff\x51\x03" + (480000).to_bytes(3, "big") + bytes(events) + b"\x00\xff\x2f\x00"
    with open(path, "wb") as f:
        f.write(smf(track, 480))


def mono():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def say(text):
    print(f"{text} mono={mono()}", flush=True)


class Event(ctypes.Structure):
    """snd_seq_event_t for note events (28 bytes: header, time, source, dest, note data)."""
    _fields_ = [("type", ctypes.c_uint8), ("flags", ctypes.c_uint8), ("tag", ctypes.c_uint8),
                ("queue", ctypes.c_uint8), ("time_a", ctypes.c_uint32), ("time_b", ctypes.c_uint32),
                ("source_client", ctypes.c_uint8), ("source_port", ctypes.c_uint8),
                ("dest_client", ctypes.c_uint8), ("dest_port", ctypes.c_uint8),
                ("channel", ctypes.c_uint8), ("note", ctypes.c_uint8), ("velocity", ctypes.c_uint8),
                ("off_velocity", ctypes.c_uint8), ("duration", ctypes.c_uint32), ("reserved", ctypes.c_uint32)]


class Sequencer:
    NOTE_ON, NOTE_OFF = 6, 7
    QUEUE_DIRECT, ADDRESS_SUBSCRIBERS, ADDRESS_UNKNOWN = 253, 254, 253
    CAP_READ, CAP_SUBS_READ = 1 << 0, 1 << 5
    TYPE_MIDI_GENERIC, TYPE_APPLICATION = 1 << 1, 1 << 20

    def __init__(self, name, make_port=True):
        assert ctypes.sizeof(Event) == 28
        self.lib = ctypes.CDLL("libasound.so.2")
        self.handle = ctypes.c_void_p()
        self.check(self.lib.snd_seq_open(ctypes.byref(self.handle), b"default", 3, 0), "snd_seq_open")
        self.check(self.lib.snd_seq_set_client_name(self.handle, name.encode()), "set_client_name")
        self.client = self.lib.snd_seq_client_id(self.handle)
        if make_port:
            self.port = self.check(self.lib.snd_seq_create_simple_port(
                self.handle, name.encode(), self.CAP_READ | self.CAP_SUBS_READ,
                self.TYPE_MIDI_GENERIC | self.TYPE_APPLICATION), "create_simple_port")
        self.info = ctypes.c_void_p()
        self.check(self.lib.snd_seq_port_info_malloc(ctypes.byref(self.info)), "port_info_malloc")

    @staticmethod
    def check(rc, what):
        if rc < 0:
            sys.exit(f"instrument-midi: {what} failed ({rc})")
        return rc

    def subscribers(self):
        self.check(self.lib.snd_seq_get_port_info(self.handle, self.port, self.info), "get_port_info")
        return self.lib.snd_seq_port_info_get_read_use(self.info)

    def connect_to(self, client, port):
        # -EBUSY: the subscription exists already: an instrument running with --autoconnect took our
        # port the moment it appeared, which is just as connected.
        rc = self.lib.snd_seq_connect_to(self.handle, self.port, client, port)
        if rc != -16:
            self.check(rc, "connect_to")

    def note(self, on, channel, note, velocity):
        ev = Event(type=self.NOTE_ON if on else self.NOTE_OFF, queue=self.QUEUE_DIRECT,
                   source_port=self.port, dest_client=self.ADDRESS_SUBSCRIBERS,
                   dest_port=self.ADDRESS_UNKNOWN, channel=channel - 1, note=note,
                   velocity=velocity if on else 0)
        self.check(self.lib.snd_seq_event_output_direct(self.handle, ctypes.byref(ev)), "event_output_direct")


def run_source(name, channel, notes):
    seq = Sequencer(name)
    say(f"ready {seq.client}:{seq.port}")
    while seq.subscribers() == 0:
        time.sleep(0.002)
    say("subscribed")
    for note in notes:
        seq.note(True, channel, note, 100)
    say("chord sent")
    while True:
        time.sleep(1)


def run_stream(dest, channel, note, count, interval, length):
    seq = Sequencer("rig-stream")
    client, port = (int(x) for x in dest.split(":"))
    seq.connect_to(client, port)
    # Intervals spread +-25 ms around INTERVAL (fixed seed): a steady 150 ms is almost exactly
    # 7 periods of 1024 frames, so even period-quantised onsets would keep nearly constant
    # intervals; spread intervals make every note land at a different phase of the period.
    spread = random.Random(20261122)
    on_at = mono() + 300_000_000
    for i in range(count):
        if i:
            on_at += int((interval + spread.uniform(-0.025, 0.025)) * 1e9)
        sleep_until(on_at)
        before = mono()
        seq.note(True, channel, note, 100)
        after = mono()
        print(f"note {i} before={before} after={after}", flush=True)
        sleep_until(on_at + int(length * 1e9))
        seq.note(False, channel, note, 0)
    say("stream done")


def sleep_until(ns):
    delay = (ns - mono()) / 1e9
    if delay > 0:
        time.sleep(delay)


def run_clock(status_path, stop_path):
    """hw_ptr of a running capture between two monotonic reads; ~every 47 ms (not a multiple of
    the 4 ms jiffy, so the samples sweep the jiffy phase)."""
    while not os.path.exists(stop_path):
        t1 = mono()
        with open(status_path) as f:
            text = f.read()
        t2 = mono()
        real = time.clock_gettime_ns(time.CLOCK_REALTIME)
        fields = {key.strip(): value.strip() for key, value in
                  (line.split(":", 1) for line in text.splitlines() if ":" in line)}
        if fields.get("state") == "RUNNING" and "hw_ptr" in fields:
            print(f"{t1} {t2} {real} {fields['hw_ptr']}", flush=True)
        time.sleep(0.047)


def main(argv):
    if len(argv) >= 2 and argv[0] == "song":
        write_song(argv[1])
    elif len(argv) >= 4 and argv[0] == "source":
        run_source(argv[1], int(argv[2]), [int(n) for n in argv[3:]])
    elif len(argv) == 7 and argv[0] == "stream":
        run_stream(argv[1], int(argv[2]), int(argv[3]), int(argv[4]), float(argv[5]), float(argv[6]))
    elif len(argv) == 3 and argv[0] == "clock":
        run_clock(argv[1], argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
