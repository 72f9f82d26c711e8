#!/bin/bash
# A 1,000,000-event MIDI flood, live. Runs INSIDE the alsa-vm guest (see run-midi-flood.sh).
#   usage: midi-flood.sh /path/to/audiograph /path/to/abuse-midi.py    (working dir: test.json, flood.bin)
# `audiograph play` at a 128-frame period on hw:Loopback,0,0, captured on hw:Loopback,1,0. A held
# chord first (the baseline), then flood.bin written to the sequencer as fast as the kernel takes
# it, then pedals up and all-notes-off on every channel. The guest checks underruns, voices and
# NaN through `status --json`; the host checks the capture goes silent within the release time.
set -u
source "$(dirname "$0")/guest-lib.sh"
start_abuse_test "$@"
nap 1
# Where the CPU goes: each thread of play with its scheduling policy, priority and CPU seconds.
threads() {
    local t
    for t in /proc/$ag/task/*; do
        awk -v n="$(cat "$t/comm")" '{ printf "  %-16s policy %s prio %3s cpu %6.2f s\n", n, $41, $40, ($14 + $15) / 100 }' "$t/stat"
    done
}
echo "guest: $(nproc) CPUs, sched_rt_runtime_us $(cat /proc/sys/kernel/sched_rt_runtime_us), clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
echo "threads before the flood:"; threads

AG_PID=$ag python3 "$HELPER" flood "$AG" AudioGraph:0 flood.bin "${QUIET:-6}" > flood.txt 2>&1
cat flood.txt
echo "threads after the flood:"; threads
start=$(field flood.txt start xruns) quiet=$(field flood.txt quiet xruns) flood=$(field flood.txt flood xruns) after=$(field flood.txt after xruns)
if [[ -z $after ]]; then
    failc "the flood did not finish"
else
    echo "underruns: $((quiet - start)) in the ${QUIET:-6} s baseline, $((flood - quiet)) in the flood ($(field flood.txt flood seconds) s), $((after - flood)) after it"
    awk -v r0="$(field flood.txt start rtCpu)" -v r1="$(field flood.txt quiet rtCpu)" -v r2="$(field flood.txt flood rtCpu)" \
        -v m1="$(field flood.txt quiet midiCpu)" -v m2="$(field flood.txt flood midiCpu)" -v bs="${QUIET:-6}" -v fs="$(field flood.txt flood seconds)" \
        'BEGIN { printf "CPU share: render thread %.0f%% baseline, %.0f%% flood; MIDI reader %.0f%% in the flood\n", 100 * (r1 - r0) / bs, 100 * (r2 - r1) / (fs + 0.3), 100 * (m2 - m1) / (fs + 0.3) }'
    echo "MIDI: $(field flood.txt flood midiDeferredPeriods) periods deferred events to the next, $(field flood.txt flood midiEventsCoalesced) values coalesced, $(field flood.txt flood midiNoteOnsSkipped) late note-ons skipped, $(field flood.txt flood midiEventsDropped) dropped (ring full), $(field flood.txt flood midiInputOverruns) kernel queue overruns"
    # The emulated CPU on a shared host underruns now and then with no MIDI at all: the flood's
    # underruns per second are held against the baseline's (twice it, plus one every 2 s).
    awk -v b=$((quiet - start)) -v bs="${QUIET:-6}" -v f=$((flood - quiet)) -v fs="$(field flood.txt flood seconds)" \
        'BEGIN { printf "underruns per second: baseline %.2f, flood %.2f\n", b / bs, f / fs; exit !(f / fs <= 2 * b / bs + 0.5) }' \
        && pass "the flood caused no underruns beyond the baseline's rate" || failc "underruns during the flood above the baseline's rate"
    [[ $(field flood.txt after voices) == 0 ]] && pass "0 voices after all-notes-off" || failc "$(field flood.txt after voices) voices after all-notes-off"
    [[ $(field flood.txt after nonFiniteBlocks) == 0 ]] && pass "no NaN/inf block" || failc "$(field flood.txt after nonFiniteBlocks) NaN/inf blocks"
    [[ $(field flood.txt flood refused) == 0 ]] && pass "every event written" || failc "$(field flood.txt flood refused) events refused by the kernel"
fi
stop_play_and_capture "MIDI flood" flood.txt 6
