"""What the web panel costs a running `audiograph play --device paced` (driven by scripts/bench-panel).

  bench_panel.py cpu AUDIOGRAPH SECONDS ROUNDS
      CPU time of the play process (utime + stime from /proc/PID/stat) over SECONDS, idle (no song),
      in four settings, interleaved ROUNDS times: without --panel; --panel with no page open;
      --panel with one page open reading its state frames (25 a second, counted); --panel with the
      page open in headless Chromium (when selenium imports: .build/panel-venv's python).
  bench_panel.py flood AUDIOGRAPH ROUNDS
      xruns of the paced device during 10 s, in four settings, interleaved ROUNDS times: no panel;
      --panel with no client; --panel flooded with 1,000 requests/s (flood.py); no panel while the
      same flood hits a second play's panel, which loads the machine (CPU, loopback TCP) as the
      flood does without touching the measured process.

Timings on a shared machine are noisy: the settings are interleaved and each is reported with
every round's figure. Not a test: it asserts nothing."""
import json, os, socket, statistics, subprocess, sys, tempfile, time
from flood import flood
from wsclient import read_frame, upgrade

TICKS = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Play:
    """`audiograph play --device paced` in a private XDG_RUNTIME_DIR (its own control socket)."""

    def __init__(self, audiograph, panel_port=None, seconds=120, extra=()):
        self.audiograph = audiograph
        self.dir = tempfile.mkdtemp(prefix="ag-bench-")
        run = os.path.join(self.dir, "run")
        os.mkdir(run, 0o700)
        self.env = dict(os.environ, XDG_RUNTIME_DIR=run, XDG_CONFIG_HOME=os.path.join(self.dir, "config"), HOME=self.dir)
        args = [audiograph, "play", "--device", "paced", "--duration", str(seconds)]
        if panel_port:
            args += ["--panel", str(panel_port)]
        args += list(extra)
        self.log = open(os.path.join(self.dir, "play.log"), "w")
        self.process = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, env=self.env)
        for _ in range(200):
            if "ready in" in open(self.log.name).read() and (not panel_port or "panel: http" in open(self.log.name).read()):
                break
            time.sleep(0.05)
        time.sleep(2)  # the background level builder finishes; the instrument is idle from here

    def cpu_seconds(self):
        fields = open(f"/proc/{self.process.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    def xruns(self):
        out = subprocess.run([self.audiograph, "status", "--json"], capture_output=True, text=True, timeout=10, env=self.env).stdout
        return json.loads(out)["xruns"]

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        self.log.close()
        subprocess.run(["rm", "-rf", self.dir])


def read_state(port, seconds):
    """One page's WebSocket reading state frames for `seconds`; returns how many came."""
    s, line, _ = upgrade("127.0.0.1", port, origin=f"http://127.0.0.1:{port}")
    assert " 101 " in line, line
    s.settimeout(2)
    frames, end = 0, time.time() + seconds
    while time.time() < end:
        f = read_frame(s)
        if f is None:
            break
        frames += f[0] == 1 and b'"type":"state"' in f[1]
    s.close()
    return frames


def chromium_page(port):
    """Headless Chromium showing the page (browser.py; needs selenium: run with .build/panel-venv's
    python and HOME at a temporary directory), or None without selenium."""
    try:
        import browser
    except ImportError:
        return None
    driver = browser.chromium()
    driver.get(f"http://127.0.0.1:{port}/")
    link = driver.find_element("id", "link")
    browser.wait_for(lambda: "up" in link.get_attribute("class"))
    return driver


def cpu(audiograph, seconds, rounds):
    results = {"no --panel": [], "--panel, no page open": [], "--panel, one page at 25 Hz": []}
    try:
        import selenium  # noqa: F401
        results["--panel, one Chromium page"] = []
    except ImportError:
        print("(no selenium here: the Chromium setting is left out; run with .build/panel-venv/bin/python)")
    rates = []
    for _ in range(rounds):
        for setting in results:
            port = None if setting == "no --panel" else free_port()
            play = Play(audiograph, port)
            driver = chromium_page(port) if setting.endswith("Chromium page") else None
            before = play.cpu_seconds()
            if setting.endswith("25 Hz"):
                rates.append(read_state(port, seconds) / seconds)
            else:
                time.sleep(seconds)
            if driver:
                driver.quit()
            used = play.cpu_seconds() - before
            play.stop()
            results[setting].append(100 * used / seconds)
            print(f"  {setting:28} {100 * used / seconds:5.2f} % of a core", flush=True)
    print(f"\nidle CPU of play --device paced over {seconds} s ({rounds} rounds, interleaved; % of one core):")
    for setting, values in results.items():
        print(f"  {setting:28} median {statistics.median(values):5.2f} %   runs: " + ", ".join(f"{v:.2f}" for v in values))
    if rates:
        print(f"  state frames received: {', '.join(f'{r:.1f}' for r in rates)} per second")


def flood_bench(audiograph, rounds):
    """A second play (`--rt-priority 0 --panel`) runs beside the measured one in every setting, so
    the last setting loads the machine exactly as the flood does, through another process."""
    settings = ["no panel, quiet", "--panel, quiet", "--panel, flooded", "no panel, the other's panel flooded"]
    results = {s: [] for s in settings}
    for _ in range(rounds):
        for setting in settings:
            other_port = free_port()
            other = Play(audiograph, other_port, extra=["--rt-priority", "0"])
            port = free_port() if setting.startswith("--panel") else None
            play = Play(audiograph, port)
            before = play.xruns()
            detail = ""
            if setting.endswith("flooded"):
                counts, elapsed = flood("127.0.0.1", port if setting == "--panel, flooded" else other_port)
                detail = f"{sum(counts.values())} requests in {elapsed:.1f} s {counts}"
            else:
                time.sleep(10.2)
            xruns = play.xruns() - before
            play.stop()
            other.stop()
            results[setting].append(xruns)
            print(f"  {setting:36} xruns {xruns:3d}  {detail}", flush=True)
    print(f"\nxruns of play --device paced (period 256, 3 periods) in 10 s ({rounds} rounds, interleaved):")
    for setting, values in results.items():
        print(f"  {setting:36} total {sum(values):3d}   runs: " + ", ".join(map(str, values)))


if __name__ == "__main__":
    mode, audiograph = sys.argv[1], sys.argv[2]
    if mode == "cpu":
        cpu(audiograph, int(sys.argv[3]), int(sys.argv[4]))
    else:
        flood_bench(audiograph, int(sys.argv[3]))
