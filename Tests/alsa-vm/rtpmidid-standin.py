#!/usr/bin/env python3
"""A stand-in for rtpmidid in the sequencer, for the autoconnect rig test (autoconnect-rtpmidid.sh).

Stdlib only (ctypes on libasound), so it runs unchanged inside the alsa-vm guest.

  rtpmidid-standin.py CLIENT CHANNEL

Makes ports exactly as rtpmidid's aseq_t::create_port does (READ|WRITE|SUBS_READ|SUBS_WRITE,
type MIDI_GENERIC only; NO_EXPORT for its private port), on a client named CLIENT:

  Announcements                      private port, NO_EXPORT, subscribed from System:Announce
  Network Export                     the export port
  Studio Mac                         a remote only discovered on the LAN (subscribing would dial it)
  Midi Through-Midi Through Port-0   an incoming session whose remote's first subscriber was its
                                     Midi Through port (what issue 14 saw skipped)

then, once something subscribes to the session port: A4 (69) for 1.0 s, then E5 (76) held while
the session ends (the port is removed), then the discovered remote leaves too. Before removing
anything it prints how many subscribers each port has ('subscribers NAME=N'). Every line carries
'mono=<ns>' (CLOCK_MONOTONIC).
"""
import ctypes
import sys
import time

CAP_READ, CAP_WRITE, CAP_SUBS_READ, CAP_SUBS_WRITE, CAP_NO_EXPORT = 1, 2, 1 << 5, 1 << 6, 1 << 7
TYPE_MIDI_GENERIC = 1 << 1
SESSION_CAPS = CAP_READ | CAP_WRITE | CAP_SUBS_READ | CAP_SUBS_WRITE
NOTE_ON, NOTE_OFF = 6, 7
QUEUE_DIRECT, ADDRESS_SUBSCRIBERS, ADDRESS_UNKNOWN = 253, 254, 253


class Event(ctypes.Structure):
    """snd_seq_event_t for note events (28 bytes)."""
    _fields_ = [("type", ctypes.c_uint8), ("flags", ctypes.c_uint8), ("tag", ctypes.c_uint8),
                ("queue", ctypes.c_uint8), ("time_a", ctypes.c_uint32), ("time_b", ctypes.c_uint32),
                ("source_client", ctypes.c_uint8), ("source_port", ctypes.c_uint8),
                ("dest_client", ctypes.c_uint8), ("dest_port", ctypes.c_uint8),
                ("channel", ctypes.c_uint8), ("note", ctypes.c_uint8), ("velocity", ctypes.c_uint8),
                ("off_velocity", ctypes.c_uint8), ("duration", ctypes.c_uint32), ("reserved", ctypes.c_uint32)]


def mono():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def say(text):
    print(f"{text} mono={mono()}", flush=True)


class StandIn:
    def __init__(self, name):
        assert ctypes.sizeof(Event) == 28
        self.lib = ctypes.CDLL("libasound.so.2")
        self.handle = ctypes.c_void_p()
        self.check(self.lib.snd_seq_open(ctypes.byref(self.handle), b"default", 3, 0), "snd_seq_open")
        self.check(self.lib.snd_seq_set_client_name(self.handle, name.encode()), "set_client_name")
        self.client = self.lib.snd_seq_client_id(self.handle)
        self.info = ctypes.c_void_p()
        self.check(self.lib.snd_seq_port_info_malloc(ctypes.byref(self.info)), "port_info_malloc")
        self.ports = {}

    @staticmethod
    def check(rc, what):
        if rc < 0:
            sys.exit(f"rtpmidid-standin: {what} failed ({rc})")
        return rc

    def create(self, name, exported=True):
        caps = SESSION_CAPS if exported else SESSION_CAPS | CAP_NO_EXPORT
        port = self.check(self.lib.snd_seq_create_simple_port(self.handle, name.encode(), caps, TYPE_MIDI_GENERIC),
                          f"create port {name}")
        self.ports[name] = port
        say(f"port {self.client}:{port} '{name}' created")
        return port

    def remove(self, name):
        self.check(self.lib.snd_seq_delete_port(self.handle, self.ports.pop(name)), f"delete port {name}")
        say(f"port '{name}' removed")

    def subscribers(self, name):
        self.check(self.lib.snd_seq_get_port_info(self.handle, self.ports[name], self.info), "get_port_info")
        return self.lib.snd_seq_port_info_get_read_use(self.info)

    def note(self, name, on, channel, note):
        ev = Event(type=NOTE_ON if on else NOTE_OFF, queue=QUEUE_DIRECT, source_port=self.ports[name],
                   dest_client=ADDRESS_SUBSCRIBERS, dest_port=ADDRESS_UNKNOWN, channel=channel - 1, note=note,
                   velocity=100 if on else 0)
        self.check(self.lib.snd_seq_event_output_direct(self.handle, ctypes.byref(ev)), "event_output_direct")
        say(f"note-{'on' if on else 'off'} {note}")

    def report(self):
        say("subscribers " + " ".join(f"{name.replace(' ', '_')}={self.subscribers(name)}" for name in self.ports))


def main():
    name, channel = sys.argv[1], int(sys.argv[2])
    seq = StandIn(name)
    announcements = seq.create("Announcements", exported=False)
    seq.check(seq.lib.snd_seq_connect_from(seq.handle, announcements, 0, 1), "connect from System:Announce")
    seq.create("Network Export")
    seq.create("Studio Mac")
    session = "Midi Through-Midi Through Port-0"
    seq.create(session)
    deadline = time.monotonic() + 10
    while seq.subscribers(session) == 0:
        if time.monotonic() > deadline:
            seq.report()
            sys.exit("rtpmidid-standin: nobody subscribed to the session port within 10 s")
        time.sleep(0.001)
    say("session subscribed")
    time.sleep(0.3)
    seq.note(session, True, channel, 69)
    time.sleep(1.0)
    seq.note(session, False, channel, 69)
    time.sleep(0.5)
    seq.note(session, True, channel, 76)
    time.sleep(0.6)
    seq.report()
    seq.remove(session)  # the session ends with E5 held: the instrument must release it
    time.sleep(1.0)
    seq.remove("Studio Mac")  # the remote stops advertising
    say("done")


if __name__ == "__main__":
    main()
