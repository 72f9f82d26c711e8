#!/usr/bin/env python3
"""Hostile MIDI for the rig's abuse tests (run-midi-flood.sh, run-source-vanish.sh).

Stdlib only (ctypes on libasound, via instrument-midi.py's Sequencer), so it runs in the guest.

  flood-file OUT COUNT SEED     (host) COUNT raw sequencer events (snd_seq_event_t, 28 bytes, plus
                                sysex payloads): notes, CCs (pedals too), bends, programs, pressure,
                                sysex and garbage (out-of-range channels, notes, controllers and
                                values; clock, song and user events), seeded
  flood AG DEST FILE QUIET
                                (guest) connects to DEST; holds a 2-note chord (the flood instrument's
                                polyphony) for QUIET s (the baseline),
                                writes FILE to the sequencer as fast as the kernel takes it, then
                                sends pedals up and all-notes-off on every channel; prints
                                `audiograph status --json` figures after each phase and the
                                guest's uptime when all-notes-off went out
  vanish AG DEST COUNT          (guest) COUNT times: a new process makes a client, connects to DEST,
                                sends a chord (pedal down every third time) and vanishes without
                                note-offs: by exiting (even turns) or by deleting its port (odd
                                turns); prints the guest's uptime after the last one

  control AG DEST SECONDS        (guest) the control socket abused while a chord holds: a client that
                                never sends, a 1 MB line, binary garbage, bad names and values, half
                                a line then gone, then 4 clients as fast as they can for SECONDS s;
                                prints every distinct reply kind, the rate, and status before/after
  silence CAPTURE.f32 LOG RELEASE
                                (host) the capture (raw 32-bit float stereo, 48 kHz) is below
                                -90 dBFS from RELEASE s after the notes were let go to its end

Every status line is `key=value ...`, for the guest script to check.
"""
import ctypes
import errno
import json
import os
import random
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
instrument_midi = __import__("instrument-midi")
Sequencer = instrument_midi.Sequencer

EVENT = struct.Struct("<BBBBIIBBBB12s")  # snd_seq_event_t: header, time, source, dest, data
DIRECT, SUBSCRIBERS, UNKNOWN = 253, 254, 253
VARIABLE = 1 << 2
NOTEON, NOTEOFF, KEYPRESS, CONTROLLER, PGMCHANGE, CHANPRESS, PITCHBEND = 6, 7, 8, 10, 11, 12, 13
SYSEX = 130
# Defined types the translator has no use for (NOTE is refused when sent direct): CONTROL14, NRPN, RPN, song position/select,
# quarter frame, time/key signature, start/continue/stop, clock, tick, tune request, reset,
# sensing, echo, user events.
GARBAGE_TYPES = [14, 15, 16, 20, 21, 22, 23, 24, 30, 31, 32, 36, 37, 40, 41, 42, 50, 90, 95, 99]


def event(kind, data, flags=0, port=0):
    return EVENT.pack(kind, flags, 0, DIRECT, 0, 0, 0, port, SUBSCRIBERS, UNKNOWN, data)


def note_data(channel, note, velocity):
    return struct.pack("<BBBBII", channel, note, velocity, 0, 0, 0)


def ctrl_data(channel, param, value):
    return struct.pack("<BBBBIi", channel, 0, 0, 0, param, value)


def flood_file(path, count, seed):
    r = random.Random(seed)
    out = bytearray()
    for i in range(count):
        k = r.random()
        ch, a, b = r.randrange(16), r.randrange(128), r.randrange(128)
        if k < 0.25:
            out += event(NOTEON, note_data(ch, a, b))
        elif k < 0.40:
            out += event(NOTEOFF, note_data(ch, a, b))
        elif k < 0.55:
            out += event(CONTROLLER, ctrl_data(ch, a, b))
        elif k < 0.60:
            out += event(CONTROLLER, ctrl_data(ch, r.choice([64, 66]), b))  # pedals
        elif k < 0.68:
            out += event(PITCHBEND, ctrl_data(ch, 0, r.randrange(-8192, 8192)))
        elif k < 0.72:
            out += event(PGMCHANGE, ctrl_data(ch, 0, a))
        elif k < 0.76:
            out += event(r.choice([CHANPRESS, KEYPRESS]), ctrl_data(ch, a, b) if r.random() < 0.5 else note_data(ch, a, b))
        elif k < 0.82:
            body = bytes(r.randrange(256) for _ in range(r.randrange(1, 48)))
            if r.random() < 0.5:
                body = b"\xf0" + bytes(x & 0x7F for x in body) + b"\xf7"  # well formed
            out += event(SYSEX, struct.pack("<IQ", len(body), 0), VARIABLE) + body
        else:  # garbage: values no MIDI message can carry, and events of other kinds
            g = r.randrange(4)
            if g == 0:
                out += event(r.choice([NOTEON, NOTEOFF, KEYPRESS]), note_data(r.randrange(256), r.randrange(256), r.randrange(256)))
            elif g == 1:
                out += event(r.choice([CONTROLLER, PGMCHANGE, CHANPRESS, PITCHBEND]),
                             ctrl_data(r.randrange(256), r.getrandbits(32), r.getrandbits(32) - (1 << 31)))
            else:
                out += event(r.choice(GARBAGE_TYPES), bytes(r.randrange(256) for _ in range(12)))
    with open(path, "wb") as f:
        f.write(out)


def uptime():
    """The guest's /proc/uptime: the clock the guest script stops the capture by."""
    with open("/proc/uptime") as f:
        return float(f.read().split()[0])


def status(ag):
    """The figures the checks need from `audiograph status --json`, and (with AG_PID set) the CPU
    seconds play's render and MIDI threads have used."""
    s = json.loads(subprocess.run([ag, "status", "--json"], capture_output=True, text=True, check=True).stdout)
    figures = {k: s[k] for k in ("voices", "xruns", "missedDeadlines", "midiEventsDropped", "midiInputOverruns",
                                 "midiDeferredPeriods", "midiEventsCoalesced", "midiNoteOnsSkipped", "nonFiniteBlocks")} \
        | {"rms": round(s["outputRMSDecibels"][0], 2)}
    return figures | thread_cpu(os.environ.get("AG_PID"))


def thread_cpu(pid):
    """CPU seconds (user + system) of the render thread (`rtCpu`) and the MIDI reader (`midiCpu`)."""
    names = {"audiograph-rt": "rtCpu", "agraph-midi": "midiCpu"}
    cpu = {}
    for task in os.listdir(f"/proc/{pid}/task") if pid else []:
        with open(f"/proc/{pid}/task/{task}/comm") as f:
            name = names.get(f.read().strip())
        if name:
            with open(f"/proc/{pid}/task/{task}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            cpu[name] = round((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), 2)
    return cpu


def report(phase, ag, **extra):
    figures = status(ag) | extra
    print(f"{phase} " + " ".join(f"{k}={v}" for k, v in figures.items()), flush=True)
    return figures


def address(seq, spec):
    addr = (ctypes.c_uint8 * 2)()
    seq.check(seq.lib.snd_seq_parse_address(seq.handle, addr, spec.encode()), f"parse_address {spec}")
    return addr[0], addr[1]


def connected(name, dest):
    seq = Sequencer(name)
    seq.connect_to(*address(seq, dest))
    return seq


def all_notes_off(seq):
    for channel in range(16):
        for cc in (64, 66, 123):
            send_cc(seq, channel, cc, 0)


def send_cc(seq, channel, cc, value):
    raw = event(CONTROLLER, ctrl_data(channel, cc, value), port=seq.port)
    seq.check(seq.lib.snd_seq_event_output_direct(seq.handle, ctypes.c_char_p(raw)), "event_output_direct")


def run_flood(ag, dest, path, quiet):
    seq = connected("rig-flood", dest)
    assert seq.port == 0, "the flood file's events carry source port 0"
    fds = (ctypes.c_int32 * 2)()
    seq.check(seq.lib.snd_seq_poll_descriptors(seq.handle, fds, 1, 4), "poll_descriptors")  # POLLOUT
    fd = fds[0]
    # The baseline holds as many notes as the instrument's polyphony (2), which the flood keeps full.
    chord = (57, 64)
    report("start", ag)
    for note in chord:
        seq.note(True, 1, note, 100)
    time.sleep(quiet)
    report("quiet", ag, seconds=quiet)
    for note in chord:
        seq.note(False, 1, note, 0)
    with open(path, "rb") as f:
        data = memoryview(f.read())
    # The kernel delivers each event into our receiver's queue at once; when that is full the write
    # stops at the event: wait a little and go on from it (so the flood runs at the speed the
    # instrument reads, and the kernel clears the receiver's queue and counts an overrun).
    began, offset, refused, full = time.monotonic(), 0, 0, 0
    while offset < len(data):
        try:
            offset += os.write(fd, data[offset:offset + 65536 - 65536 % 28])
        except OSError as e:
            if e.errno in (errno.EAGAIN, errno.ENOMEM):
                full += 1
                time.sleep(0.001)
            else:  # refused outright (not expected): step over it
                refused += 1
                offset += 28 + (struct.unpack_from("<I", data, offset + 16)[0] if data[offset + 1] & VARIABLE else 0)
    seconds = time.monotonic() - began
    time.sleep(0.3)
    report("flood", ag, seconds=round(seconds, 2), bytes=len(data), queueFull=full, refused=refused)
    all_notes_off(seq)
    print(f"notes-off uptime={uptime()}", flush=True)
    time.sleep(1.5)
    report("after", ag)


def run_vanish(ag, dest, count):
    r = random.Random(20261123)
    for i in range(count):
        channel = 1 + r.randrange(16)
        chord = r.sample(range(40, 90), 3)
        pedal = i % 3 == 0
        pid = os.fork()
        if pid == 0:
            seq = connected(f"rig-vanish-{i}", dest)
            if pedal:
                send_cc(seq, channel - 1, 64, 127)
            for note in chord:
                seq.note(True, channel, note, 100)
            time.sleep(0.03)
            if i % 2:
                seq.check(seq.lib.snd_seq_delete_simple_port(seq.handle, seq.port), "delete_port")
                time.sleep(0.01)
            os._exit(0)  # no note-offs, no pedal up, no close
        os.waitpid(pid, 0)
    print(f"vanished count={count} uptime={uptime()}", flush=True)
    time.sleep(1.5)
    report("after", ag)


def control_request(path, data, half_close=True):
    import socket
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as c:
        c.settimeout(5)
        c.connect(path)
        try:
            c.sendall(data)
            if half_close:
                c.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # cut off at the line limit: the reply is waiting
        reply = b""
        while chunk := c.recv(65536):
            reply += chunk
        return reply.decode(errors="replace")


def run_control(ag, dest, seconds):
    import socket
    import threading
    path = (os.environ.get("XDG_RUNTIME_DIR") and os.environ["XDG_RUNTIME_DIR"] + "/audiograph/control.sock") \
        or f"/tmp/audiograph-{os.getuid()}/control.sock"
    seq = connected("rig-control", dest)
    for note in (57, 61, 64):
        seq.note(True, 1, note, 100)
    time.sleep(1)
    before = report("held", ag)
    idle = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    idle.connect(path)
    r = random.Random(5)
    bad = [b"set nosuch.param=1\n", b"set master.gain=nan\n", b"set master.gain=1e308\n", b"set master.gain=\n",
           b"get\n", b"\n", b"frobnicate\n", b"status\x00\n", b"set \xff\xfe\n", b"a" * (1 << 20),
           bytes(r.randrange(256) for _ in range(4000)) + b"\n"]
    ok = True
    for data in bad:
        reply = control_request(path, data)
        one_line = reply.startswith("error: ") and reply.count("\n") == 1 and len(reply) < 400
        ok &= one_line
        print(f"{'ok  ' if one_line else 'BAD '} {data[:24]!r}{'...' if len(data) > 24 else ''} -> {reply.strip()[:110]}", flush=True)
    half = control_request(path, b"status")
    print(f"half line then end -> {half.strip()[:60]}", flush=True)
    idle.settimeout(5)
    cut = idle.recv(4096).decode(errors="replace").strip()
    print(f"idle client -> {cut}", flush=True)
    ok &= cut.startswith("error: no complete request line")
    counts = {"ok": 0, "error": 0, "other": 0}
    lock = threading.Lock()
    end = time.monotonic() + seconds
    requests = [b"status\n", b"get master.gain\n", b"set master.gain=nan\n", b"set no.such=1\n"]

    def client(k):
        i = k
        while time.monotonic() < end:
            reply = control_request(path, requests[i % len(requests)])
            kind = "ok" if reply.startswith("ok") else "error" if reply.startswith("error: ") and reply.count("\n") == 1 else "other"
            with lock:
                counts[kind] += 1
            i += 1

    threads = [threading.Thread(target=client, args=(k,)) for k in range(4)]
    began = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - began
    total = sum(counts.values())
    print(f"burst requests={total} seconds={elapsed:.1f} rate={total / elapsed:.0f} ok={counts['ok']} errors={counts['error']} other={counts['other']}", flush=True)
    after = report("held-after", ag)
    ok &= counts["other"] == 0 and after["voices"] == before["voices"] and abs(after["rms"] - before["rms"]) < 0.5
    print(f"control {'PASS' if ok else 'FAIL'} underruns={after['xruns'] - before['xruns']}", flush=True)


def check_silence(capture, log, release):
    """LOG has the guest's uptime when the notes were let go (`uptime=`) and when the capture was
    stopped (`capture-stop uptime=`): the capture's end is that long after the notes-off, so the
    last sound above -90 dBFS is placed from the end (capture overruns earlier cannot shift it)."""
    import numpy as np
    rate, floor = 48000, 10 ** (-90 / 20)
    x = np.abs(np.fromfile(capture, dtype="<f4")).reshape(-1, 2).max(axis=1)
    with open(log) as f:
        stamps = [float(line.split("uptime=")[1].split()[0]) for line in f if "uptime=" in line]
    let_go, stop = stamps[0], stamps[-1]
    loud = np.nonzero(x >= floor)[0]
    silent_at_end = (len(x) - (loud[-1] + 1 if len(loud) else 0)) / rate
    to_silence = (stop - let_go) - silent_at_end
    print(f"capture: {len(x) / rate:.1f} s, stopped {stop - let_go:.2f} s after the notes were let go; "
          f"last sound above -90 dBFS {to_silence * 1000:.0f} ms after they were let go")
    ok = len(loud) > 0 and to_silence <= release
    print(("PASS" if ok else "FAIL") + f": silent (below -90 dBFS) within {release} s")
    return ok


def main(argv):
    if len(argv) == 4 and argv[0] == "flood-file":
        flood_file(argv[1], int(argv[2]), int(argv[3]))
    elif len(argv) == 5 and argv[0] == "flood":
        run_flood(argv[1], argv[2], argv[3], float(argv[4]))
    elif len(argv) == 4 and argv[0] == "control":
        run_control(argv[1], argv[2], float(argv[3]))
    elif len(argv) == 4 and argv[0] == "silence":
        sys.exit(0 if check_silence(argv[1], argv[2], float(argv[3])) else 1)
    elif len(argv) == 4 and argv[0] == "vanish":
        run_vanish(argv[1], argv[2], int(argv[3]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
