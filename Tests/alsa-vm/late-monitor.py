#!/usr/bin/env python3
"""late-monitor.py FILE: run in the rig's guest under the virtual clock (run-in-alsa-vm starts it).

Wakes every 10 ms at the guest's highest real-time priority and appends a line "UPTIME LATE_MS" to
FILE for each wake-up more than 10 ms late. Under the virtual clock nothing in the guest can make it
late: it outranks every guest thread, and guest code costs fixed guest time. But an idle guest's
clock runs with the host's, so when a busy host lets qemu sleep past the guest's next timer, the
guest wakes late by as much — the same lateness that makes an audio period miss its deadline. Those
lines are how run-in-alsa-vm tells a starved guest from a late render.
"""
import os
import sys
import time

PERIOD = LIMIT = 0.010
os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(99))
with open(sys.argv[1], "a", buffering=1) as out:
    due = time.monotonic()
    while True:
        due += PERIOD
        time.sleep(max(0.0, due - time.monotonic()))
        now = time.monotonic()
        if now - due > LIMIT:
            out.write(f"{now:.3f} {1000 * (now - due):.0f}\n")
            due = now
