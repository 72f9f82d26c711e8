#!/usr/bin/env python3
"""timing.py COMMAND ...   times what a sound server makes of audiograph, on CLOCK_MONOTONIC.

  resume SOCKET OUT.wav [--seconds S] [--limit L]
      Waits for the server's SOCKET to accept a connection (asked every 2 ms: the moment the
      server accepts clients again), then records testsink's monitor through libpulse (PulseAudio,
      or pipewire-pulse; retried until the sink is there) for S seconds into OUT.wav, each chunk
      stamped with CLOCK_MONOTONIC. Prints when the socket answered, when the recorder got its first
      frame and when audiograph's first non-silent frame reached the sink. Fails when that is L
      seconds (default 2) or more after the socket answered — unless the recorder itself could not
      record before then: the server served nobody yet (a starved machine), which is inconclusive.
  latency OUT.wav [--notes N] [--key K] [--spacing S]
      Records testsink's monitor, plays N notes through audiograph's control socket
      ($XDG_RUNTIME_DIR/audiograph/control.sock, `note 1 K 100`, off 100 ms later), each stamped
      just before it is sent, and finds each note's onset at the sink (the first frame at 10 % of
      the note's peak): prints latency = onset - send per note, and the median, spread and worst.
  jack-latency OUT.wav [--port AudioGraph:out_L] [--notes N] [--key K] [--spacing S]
      The same with a JACK client recording the port (JACK's frame time of each cycle, on
      CLOCK_MONOTONIC, less the offset of JACK's clock measured before and after). Prints the latency to the
      graph (the cycle that carries the onset) and JACK's playback latency on top (to the outputs).
  jack-record OUT.wav [--port AudioGraph:out_L] [--seconds S]
      Records the port for S seconds (copied in the process callback itself: no disk thread that a
      busy machine could starve).
  send REQUEST...
      One request to audiograph's control socket (`note 1 69 100`, `status --json`); prints the reply.

The recording's time base: every chunk read gives (time it was read - the stream's reported
latency - the frames after it) as the time of the recording's first frame; a read can only return
late, never early, so the earliest of those is taken. Exit status 1 when an expectation fails.
"""
import argparse
import ctypes
import os
import socket
import struct
import sys
import threading
import time

import numpy as np

RATE = 48000


def now_ns():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def write_wav(path, x, rate):
    data = np.asarray(x, dtype="<f4").tobytes()
    header = b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " + struct.pack("<IHHIIHH", 16, 3, 1, rate, rate * 4, 4, 32)
    with open(path, "wb") as f:
        f.write(header + b"data" + struct.pack("<I", len(data)) + data)


class PulseRecorder:
    """testsink.monitor, mono float, 10 ms reads on a thread; chunks stamped on CLOCK_MONOTONIC."""

    def __init__(self, device="testsink.monitor", rate=RATE):
        self.rate = rate
        self.simple = ctypes.CDLL("libpulse-simple.so.0")
        self.simple.pa_simple_new.restype = ctypes.c_void_p
        self.simple.pa_simple_read.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_int)]
        self.simple.pa_simple_get_latency.restype = ctypes.c_uint64
        self.simple.pa_simple_get_latency.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
        self.simple.pa_simple_free.argtypes = [ctypes.c_void_p]
        self.device = device
        self.handle = None
        self.chunks = []  # (samples, read time ns, latency ns)
        self.stopping = False

    def connect(self):
        class Spec(ctypes.Structure):
            _fields_ = [("format", ctypes.c_int), ("rate", ctypes.c_uint32), ("channels", ctypes.c_uint8)]

        class Attr(ctypes.Structure):
            _fields_ = [(n, ctypes.c_uint32) for n in ("maxlength", "tlength", "prebuf", "minreq", "fragsize")]

        spec = Spec(5, self.rate, 1)  # PA_SAMPLE_FLOAT32LE, mono (the left channel: pulse mixes down)
        attr = Attr(0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, self.rate // 100 * 4)
        error = ctypes.c_int()
        self.handle = self.simple.pa_simple_new(None, b"ag-timing", 2, self.device.encode(), b"record", ctypes.byref(spec), None,
                                                ctypes.byref(attr), ctypes.byref(error))
        return bool(self.handle)

    def run(self):
        frames = self.rate // 100
        buf = (ctypes.c_float * frames)()
        error = ctypes.c_int()
        while not self.stopping:
            if self.simple.pa_simple_read(self.handle, buf, frames * 4, ctypes.byref(error)) < 0:
                break
            t = now_ns()
            latency = self.simple.pa_simple_get_latency(self.handle, ctypes.byref(error))
            self.chunks.append((np.frombuffer(buf, dtype=np.float32).copy(), t, latency * 1000))

    def start(self):
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def stop(self):
        self.stopping = True
        self.thread.join(2)
        self.simple.pa_simple_free(self.handle)

    def timeline(self):
        """The samples, and the CLOCK_MONOTONIC time (ns) of the first one."""
        x = np.concatenate([c[0] for c in self.chunks]) if self.chunks else np.zeros(0, np.float32)
        starts, end = [], 0
        for samples, t, latency in self.chunks:
            end += len(samples)
            starts.append(t - latency - end * 1e9 / self.rate)
        return x, (min(starts) if starts else None)

    def sample_times(self):
        """CLOCK_MONOTONIC ns of every sample, anchored chunk by chunk: each chunk's time is the
        earliest estimate among it and the 20 chunks after it (a read returns late, never early).
        A stretch the server dropped (real PulseAudio's monitor does, on a busy machine) only
        makes the estimates after it later, so it never pulls an earlier chunk's time."""
        starts, end = [], 0
        for samples, t, latency in self.chunks:
            end += len(samples)
            starts.append(t - latency - end * 1e9 / self.rate)
        starts = np.array(starts)
        local = np.array([starts[i:i + 21].min() for i in range(len(starts))])
        times, position = [], 0
        for (samples, _, _), first in zip(self.chunks, local):
            times.append(first + (position + np.arange(len(samples))) * 1e9 / self.rate)
            position += len(samples)
        return np.concatenate(times) if times else np.zeros(0)


class JACKRecorder:
    """One JACK input port connected to `source`; per cycle JACK's frame time (CLOCK_MONOTONIC µs)."""

    def __init__(self, source, seconds):
        jack = self.jack = ctypes.CDLL("libjack.so.0")
        jack.jack_client_open.restype = ctypes.c_void_p
        jack.jack_port_register.restype = ctypes.c_void_p
        jack.jack_port_register.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_ulong]
        jack.jack_port_get_buffer.restype = ctypes.c_void_p
        jack.jack_port_get_buffer.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
        jack.jack_last_frame_time.restype = ctypes.c_uint32
        jack.jack_last_frame_time.argtypes = [ctypes.c_void_p]
        jack.jack_frames_to_time.restype = ctypes.c_uint64
        jack.jack_frames_to_time.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
        jack.jack_get_time.restype = ctypes.c_uint64
        jack.jack_get_sample_rate.argtypes = [ctypes.c_void_p]
        jack.jack_port_by_name.restype = ctypes.c_void_p
        jack.jack_port_by_name.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        jack.jack_set_process_callback.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        jack.jack_activate.argtypes = [ctypes.c_void_p]
        jack.jack_connect.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p]
        jack.jack_client_close.argtypes = [ctypes.c_void_p]
        jack.jack_port_get_latency_range.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32 * 2]
        status = ctypes.c_int()
        self.client = jack.jack_client_open(b"ag-timing", 1, ctypes.byref(status))  # JackNoStartServer
        if not self.client:
            raise RuntimeError(f"cannot open a JACK client (status 0x{status.value:x})")
        self.rate = jack.jack_get_sample_rate(self.client)
        self.port = jack.jack_port_register(self.client, b"in", b"32 bit float mono audio", 1, 0)  # JackPortIsInput
        self.samples = np.zeros(int((seconds + 2) * self.rate), np.float32)
        self.cycles = []  # (first sample's index, JACK time µs of the cycle)
        self.position = 0
        callback_type = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_uint32, ctypes.c_void_p)
        self.callback = callback_type(self.process)
        jack.jack_set_process_callback(self.client, ctypes.cast(self.callback, ctypes.c_void_p), None)
        self.source = source

    def process(self, frames, _):
        buffer = self.jack.jack_port_get_buffer(self.port, frames)
        when = self.jack.jack_frames_to_time(self.client, self.jack.jack_last_frame_time(self.client))
        if self.position + frames <= len(self.samples):
            ctypes.memmove(self.samples.ctypes.data + 4 * self.position, buffer, 4 * frames)
            self.cycles.append((self.position, when))
            self.position += frames
        return 0

    def clock_offset_us(self):
        """JACK's clock minus CLOCK_MONOTONIC, in µs (≈0 when JACK runs on CLOCK_MONOTONIC)."""
        return int(self.jack.jack_get_time()) - now_ns() // 1000

    def start(self):
        if self.jack.jack_activate(self.client) != 0:
            raise RuntimeError("cannot activate the JACK client")
        if self.jack.jack_connect(self.client, self.source.encode(), b"ag-timing:in") != 0:
            raise RuntimeError(f"cannot connect {self.source}")

    def playback_latency_frames(self):
        """The largest playback latency JACK reports for the ports the source is connected to."""
        port = self.jack.jack_port_by_name(self.client, self.source.encode())
        latency = (ctypes.c_uint32 * 2)()
        if port:
            self.jack.jack_port_get_latency_range(port, 1, latency)  # JackPlaybackLatency
        return int(latency[1])

    def stop(self):
        self.jack.jack_client_close(self.client)

    def sample_times(self):
        """JACK-clock ns of every recorded sample: its cycle's frame time plus its place in it."""
        times = np.zeros(self.position)
        bounds = [c[0] for c in self.cycles[1:]] + [self.position]
        for (first, when), end in zip(self.cycles, bounds):
            times[first:end] = when * 1000 + np.arange(end - first) * 1e9 / self.rate
        return times


def wait_for_socket(path, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            return now_ns()
        except OSError:
            time.sleep(0.002)
        finally:
            s.close()
    return None


def cmd_resume(a):
    answered = wait_for_socket(a.socket, 30)
    if answered is None:
        print(f"FAIL: {a.socket} did not answer within 30 s")
        return 1
    recorder = PulseRecorder()
    while not recorder.connect():
        if (now_ns() - answered) / 1e9 > 20:
            # A client of its own the server does not serve: the server is not back yet (a
            # starved machine), so whether audiograph came back in time cannot be judged.
            print("INCONCLUSIVE: the server let no recorder onto testsink's monitor within 20 s of its "
                  "socket answering (the machine starved it): the resume is not judged")
            return 3
        time.sleep(0.01)
    recorder.start()
    time.sleep(a.seconds)
    recorder.stop()
    x, first = recorder.timeline()
    write_wav(a.out, x, RATE)
    loud = np.nonzero(np.abs(x) > 10 ** (-40 / 20))[0]
    first_frame = (first - answered) / 1e9
    print(f"  server's socket answered; its sink recorded from +{first_frame:.3f} s")
    if not len(loud):
        print(f"FAIL: no sound from audiograph in {a.seconds} s of recording")
        return 1
    sound = (first + loud[0] * 1e9 / RATE - answered) / 1e9
    bound = " (at most: it was already sounding when recording began)" if loud[0] == 0 else ""
    print(f"  audiograph audible at the sink {sound:.3f} s after the server accepted clients again{bound}")
    print(f"RESUME {sound:.3f}")
    if sound < a.limit:
        return 0
    if first_frame >= a.limit:
        print(f"INCONCLUSIVE: the server itself served its first client {first_frame:.2f} s after its socket answered (a starved machine)")
        return 0
    print(f"FAIL: {sound:.2f} s from the server's return to sound, not under {a.limit} s")
    return 1


def control(request):
    path = os.path.join(os.environ.get("XDG_RUNTIME_DIR", "/tmp"), "audiograph", "control.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(10)
        s.connect(path)
        s.sendall((request + "\n").encode())
        s.shutdown(socket.SHUT_WR)  # one request; the reply ends when the instrument closes
        reply = b""
        while chunk := s.recv(65536):
            reply += chunk
        return reply.decode()


def play_notes(a):
    """Sends the notes; returns their send times (ns)."""
    sent = []
    for _ in range(a.notes):
        t = now_ns()
        reply = control(f"note 1 {a.key} 100")
        if not reply.startswith("ok"):
            raise RuntimeError(f"note refused: {reply.strip()}")
        sent.append(t)
        time.sleep(0.1)
        control(f"note 1 {a.key} 0")
        time.sleep(a.spacing - 0.1)
    return sent


def onsets(x, rate, sent_at, times):
    """Each note's onset (a sample index): the first sample at 10 % of its peak in the 0.4 s after
    it was sent (`times`: each sample's CLOCK_MONOTONIC ns)."""
    found = []
    for t in sent_at:
        start = max(0, int(np.searchsorted(times, t)) - int(0.05 * rate))
        window = np.abs(x[start:start + int(0.45 * rate)])
        if not len(window) or window.max() < 1e-3:
            found.append(None)
            continue
        k = int(np.argmax(window >= 0.1 * window.max()))
        found.append(start + k)
    return found


def report(latencies_ms, extra_ms=None, what="sink"):
    good = [v for v in latencies_ms if v is not None]
    print("  per note (ms): " + " ".join("-" if v is None else f"{v:.1f}" for v in latencies_ms))
    if len(good) < len(latencies_ms) * 0.8:
        print(f"FAIL: {len(latencies_ms) - len(good)} of {len(latencies_ms)} notes not found")
        return 1
    v = np.array(good)
    line = f"LATENCY note→{what}: median {np.median(v):.1f} ms, min {v.min():.1f}, max {v.max():.1f}, spread {v.max() - v.min():.1f} ms"
    if extra_ms is not None:
        line += f"; + playback latency {extra_ms:.1f} ms = median {np.median(v) + extra_ms:.1f} ms to the outputs"
    print(line)
    if v.min() < -1:
        print("FAIL: a note sounded before it was sent (the time base is wrong)")
        return 1
    return 0


def cmd_latency(a):
    recorder = PulseRecorder()
    if not recorder.connect():
        print("FAIL: cannot record testsink's monitor")
        return 1
    recorder.start()
    time.sleep(2)  # real PulseAudio's monitor stream delivers in bursts and misstates its latency at first
    sent = play_notes(a)
    time.sleep(0.5)
    recorder.stop()
    x, _ = recorder.timeline()
    times = recorder.sample_times()
    write_wav(a.out, x, RATE)
    found = onsets(x, RATE, sent, times)
    return report([None if k is None else (times[k] - t) / 1e6 for k, t in zip(found, sent)])


def cmd_jack_latency(a):
    recorder = JACKRecorder(a.port, a.notes * a.spacing + 1.5)
    # jackd2 may keep its own clock (a fixed offset from CLOCK_MONOTONIC): measured before and
    # after, and taken out; a clock that drifts from it is not comparable.
    offset = recorder.clock_offset_us()
    recorder.start()
    time.sleep(0.5)
    sent = play_notes(a)
    time.sleep(0.5)
    playback = recorder.playback_latency_frames()
    drift = recorder.clock_offset_us() - offset
    recorder.stop()
    if abs(drift) > 500:
        print(f"INCONCLUSIVE: JACK's clock drifted {drift} µs from CLOCK_MONOTONIC over the run: not comparable")
        return 0
    x = recorder.samples[:recorder.position]
    write_wav(a.out, x, recorder.rate)
    times = recorder.sample_times() - offset * 1000
    found = onsets(x, recorder.rate, sent, times)
    latencies = [None if k is None else (times[k] - t) / 1e6 for k, t in zip(found, sent)]
    print(f"  JACK at {recorder.rate} Hz, its clock {offset} µs off CLOCK_MONOTONIC; playback latency of {a.port}: {playback} frames")
    return report(latencies, playback * 1000 / recorder.rate, what="graph")


def cmd_jack_record(a):
    recorder = JACKRecorder(a.port, a.seconds)
    recorder.start()
    time.sleep(a.seconds)
    recorder.stop()
    write_wav(a.out, recorder.samples[:recorder.position], recorder.rate)
    print(f"  recorded {recorder.position / recorder.rate:.2f} s of {a.port} at {recorder.rate} Hz in {len(recorder.cycles)} cycles")
    return 0


def cmd_send(a):
    reply = control(" ".join(a.request))
    print(reply.rstrip())
    return 0 if reply.startswith("ok") else 1


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("resume")
    r.add_argument("socket")
    r.add_argument("out")
    r.add_argument("--seconds", type=float, default=4)
    r.add_argument("--limit", type=float, default=2)
    for name in ("latency", "jack-latency"):
        p = sub.add_parser(name)
        p.add_argument("out")
        p.add_argument("--notes", type=int, default=12)
        p.add_argument("--key", type=int, default=69)
        p.add_argument("--spacing", type=float, default=0.5)
        if name == "jack-latency":
            p.add_argument("--port", default="AudioGraph:out_L")
    p = sub.add_parser("jack-record")
    p.add_argument("out")
    p.add_argument("--port", default="AudioGraph:out_L")
    p.add_argument("--seconds", type=float, default=3)
    p = sub.add_parser("send")
    p.add_argument("request", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    commands = {"resume": cmd_resume, "latency": cmd_latency, "jack-latency": cmd_jack_latency, "jack-record": cmd_jack_record,
                "send": cmd_send}
    return commands[a.command](a)


if __name__ == "__main__":
    sys.exit(main())
