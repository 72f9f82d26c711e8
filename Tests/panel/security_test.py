"""The web panel's defences, against a running `audiograph play --device paced --panel ADDR:PORT`.

  security_test.py remote AUDIOGRAPH HOST PORT    (run inside the client's network namespace)
      no token / a wrong one from a non-loopback address → 401 and nothing applied
  security_test.py local AUDIOGRAPH PID PORT      (loopback)
      wrong Origin, malformed and oversized messages, bad frames, 1,000 requests/s for 10 s:
      the server stays up, nothing wrong is applied, 0 xruns, memory flat"""
import http.client, json, os, subprocess, sys, threading, time
from wsclient import frame, next_text, read_frame, upgrade

mode, audiograph = sys.argv[1], sys.argv[2]
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    passed, failed = passed + bool(ok), failed + (not ok)
    print(f"{'PASS' if ok else 'FAIL'} {name}{': ' + str(detail) if detail != '' else ''}", flush=True)


def get(host, port, path, headers=None):
    c = http.client.HTTPConnection(host, port, timeout=5)
    c.request("GET", path, headers=headers or {})
    r = c.getresponse()
    body = r.read().decode(errors="replace")
    c.close()
    return r.status, body


if mode == "remote":
    host, port, token = sys.argv[3], int(sys.argv[4]), sys.argv[5]
    status, body = get(host, port, "/")
    check("page without the token from another address → 401", status == 401, f"{status} {body.strip()[:70]}")
    status, _ = get(host, port, "/?token=" + "0" * 32)
    check("page with a wrong token → 401", status == 401, status)
    for label, path in [("no token", "/ws"), ("a wrong token", "/ws?token=" + token[::-1])]:
        s, line, _ = upgrade(host, port, path, origin=f"http://{host}:{port}")
        # hummingbird-websocket answers every refused upgrade "400 Bad Request" (empty body) itself; the
        # gate's 401 reaches only plain GETs of /ws. What matters: no 101, nothing applied.
        refused = " 101 " not in line and line.startswith("HTTP/1.1 4")
        if not refused:  # should not happen: then try to apply something, the caller checks it did not land
            s.sendall(frame(b'{"type":"set","name":"master.gain","value":-42}'))
        s.close()
        check(f"WebSocket with {label} → refused", refused, line)
    status, _ = get(host, port, "/?token=" + token)
    check("page with the token → 200", status == 200, status)

else:
    pid, port = int(sys.argv[3]), int(sys.argv[4])
    host = "127.0.0.1"
    origin = f"http://{host}:{port}"

    def status_json():
        return json.loads(subprocess.run([audiograph, "status", "--json"], capture_output=True, text=True, timeout=10).stdout)

    def rss_kib():
        return int(next(l.split()[1] for l in open(f"/proc/{pid}/status") if l.startswith("VmRSS")))

    for bad in ["http://evil.example", "null", f"http://{host}:{port + 1}", None]:
        s, line, _ = upgrade(host, port, origin=bad)
        s.close()
        check(f"WebSocket with Origin {bad} → refused", " 101 " not in line and line.startswith("HTTP/1.1 4"), line)
    s, line, _ = upgrade(host, port, host_header=f"evil.example:{port}", origin=f"http://evil.example:{port}")
    s.close()
    check("a rebound name (Host and Origin evil.example) → refused", " 101 " not in line and line.startswith("HTTP/1.1 4"), line)
    status, body = get(host, port, "/ws", {"Origin": "http://evil.example"})
    check("plain GET of /ws with a foreign Origin → 403 with the reason", status == 403, body.strip()[:80])

    s, line, _ = upgrade(host, port, origin=origin)
    check("WebSocket from the page's origin → 101", " 101 " in line, line)
    before = status_json()["parameters"]["master.gain"]
    cases = [(b"not json", "not JSON"), (b'{"type":"set","name":"master.gain","value":1e309}', "not JSON"),
             (b'{"type":"set","name":"master.gain","value":-200}', "between"), (b'{"type":"set","name":"no.such","value":1}', "unknown parameter"),
             (b'{"type":"set","name":"master.gain","value":-3,"file":"/etc/passwd"}', "unknown key"),
             (b'{"type":"set","name":"master.gain","value":-3}' + b" " * 600, "refused (at most 512)"), (b"\xff\xfe\x00", "not JSON")]
    for payload, reason in cases:
        s.sendall(frame(payload))
        reply = next_text(s, '"error"')
        check(f"message {payload[:40]!r} → error", reply and reason in reply, (reply or "closed")[:100])
        time.sleep(0.6)  # error replies are limited to 2 a second
    check("...and nothing applied", status_json()["parameters"]["master.gain"] == before)
    s.sendall(frame(b"x" * 70000))
    while (end := read_frame(s)) is not None and end[0] != 8:
        pass
    check("a 70 kB frame closes the socket (1009)", end is None or end[0] == 8, end and end[1][:2].hex())
    s.close()
    for label, data in [("unmasked", frame(b'{"type":"panic"}', mask=False)), ("reserved opcode", frame(b"x", opcode=3))]:
        s, line, _ = upgrade(host, port, origin=origin)
        s.sendall(data)
        s.settimeout(3)
        try:
            while (f := read_frame(s)) is not None and f[0] != 8:
                pass
            closed = True
        except OSError:
            closed = False
        s.close()
        check(f"{label} frame: socket closed by the server", closed)
    # A frame cut short: the server waits for the rest (feeding state meanwhile); the client leaves.
    s, line, _ = upgrade(host, port, origin=origin)
    s.sendall(frame(b'{"type":"panic"}')[:5])
    s.close()

    # 1,000 requests a second for 10 s, on keep-alive connections from 10 threads.
    rss_before, xruns_before = rss_kib(), status_json()["xruns"]
    counts, lock = {}, threading.Lock()

    def flood(start):
        c = http.client.HTTPConnection(host, port, timeout=5)
        for i in range(1000):
            due = start + i / 100
            pause = due - time.time()
            if pause > 0:
                time.sleep(pause)
            try:
                c.request("GET", "/" if i % 2 else "/ws")
                r = c.getresponse()
                r.read()
                code = r.status
            except Exception:
                c.close()
                c = http.client.HTTPConnection(host, port, timeout=5)
                code = "error"
            with lock:
                counts[code] = counts.get(code, 0) + 1

    start = time.time() + 0.2
    threads = [threading.Thread(target=flood, args=(start + k / 1000,)) for k in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.time() - start
    total = sum(counts.values())
    check("1,000 requests/s for 10 s sent", total == 10000 and elapsed < 12, f"{total} in {elapsed:.1f} s: {counts}")
    time.sleep(2.5)
    status, _ = get(host, port, "/")
    check("server up after the flood (page 200)", status == 200, status)
    s2 = status_json()
    rss_after = rss_kib()
    check("render thread: 0 xruns during the attacks", s2["xruns"] == xruns_before, f"{xruns_before} → {s2['xruns']}")
    check("memory flat (RSS within 8 MiB)", rss_after - rss_before < 8192, f"RSS {rss_before} → {rss_after} KiB")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
