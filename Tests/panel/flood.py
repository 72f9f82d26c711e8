"""1,000 HTTP requests a second for 10 s from 10 threads on keep-alive connections, half for the
page and half plain GETs of /ws; returns {status or "error": count} and the seconds it took.
Used by security_test.py and scripts/bench-panel."""
import http.client, threading, time


def flood(host, port, seconds=10, threads=10, per_thread_rate=100):
    counts, lock = {}, threading.Lock()

    def one(start):
        c = http.client.HTTPConnection(host, port, timeout=5)
        for i in range(seconds * per_thread_rate):
            pause = start + i / per_thread_rate - time.time()
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
    workers = [threading.Thread(target=one, args=(start + k / 1000,)) for k in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    return counts, time.time() - start
