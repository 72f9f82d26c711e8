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
import importlib.util
import os
import sys
import time

# The live-instrument helper's sequencer client (ctypes on libasound), Event and say().
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
spec = importlib.util.spec_from_file_location(
    "instrument_midi", os.path.join(os.path.dirname(os.path.abspath(__file__)), "instrument-midi.py"))
helper = importlib.util.module_from_spec(spec)
spec.loader.exec_module(helper)
Event, say = helper.Event, helper.say

CAP_WRITE, CAP_SUBS_WRITE, CAP_NO_EXPORT = 1 << 1, 1 << 6, 1 << 7
SESSION_CAPS = helper.Sequencer.CAP_READ | CAP_WRITE | helper.Sequencer.CAP_SUBS_READ | CAP_SUBS_WRITE


class StandIn(helper.Sequencer):
    """A client with rtpmidid's kind of ports, created and removed by name."""

    def __init__(self, name):
        super().__init__(name, make_port=False)
        self.ports = {}

    def create(self, name, exported=True):
        caps = SESSION_CAPS if exported else SESSION_CAPS | CAP_NO_EXPORT
        port = self.check(self.lib.snd_seq_create_simple_port(self.handle, name.encode(), caps, self.TYPE_MIDI_GENERIC),
                          f"create port {name}")
        self.ports[name] = port
        say(f"port {self.client}:{port} '{name}' created")
        return port

    def remove(self, name):
        self.check(self.lib.snd_seq_delete_port(self.handle, self.ports.pop(name)), f"delete port {name}")
        say(f"port '{name}' removed")

    def port_subscribers(self, name):
        self.check(self.lib.snd_seq_get_port_info(self.handle, self.ports[name], self.info), "get_port_info")
        return self.lib.snd_seq_port_info_get_read_use(self.info)

    def port_note(self, name, on, channel, note):
        ev = Event(type=self.NOTE_ON if on else self.NOTE_OFF, queue=self.QUEUE_DIRECT, source_port=self.ports[name],
                   dest_client=self.ADDRESS_SUBSCRIBERS, dest_port=self.ADDRESS_UNKNOWN, channel=channel - 1, note=note,
                   velocity=100 if on else 0)
        self.check(self.lib.snd_seq_event_output_direct(self.handle, ctypes.byref(ev)), "event_output_direct")
        say(f"note-{'on' if on else 'off'} {note}")

    def report(self):
        say("subscribers " + " ".join(f"{name.replace(' ', '_')}={self.port_subscribers(name)}" for name in self.ports))


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
    while seq.port_subscribers(session) == 0:
        if time.monotonic() > deadline:
            seq.report()
            sys.exit("rtpmidid-standin: nobody subscribed to the session port within 10 s")
        time.sleep(0.001)
    say("session subscribed")
    time.sleep(0.3)
    seq.port_note(session, True, channel, 69)
    time.sleep(1.0)
    seq.port_note(session, False, channel, 69)
    time.sleep(0.5)
    seq.port_note(session, True, channel, 76)
    time.sleep(0.6)
    seq.report()
    seq.remove(session)  # the session ends with E5 held: the instrument must release it
    time.sleep(1.0)
    seq.remove("Studio Mac")  # the remote stops advertising
    say("done")


if __name__ == "__main__":
    main()
