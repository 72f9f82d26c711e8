#!/bin/bash
# A source that vanishes mid-chord, 100 times. Runs INSIDE the alsa-vm guest (see run-source-vanish.sh).
#   usage: source-vanish.sh /path/to/audiograph /path/to/abuse-midi.py    (working dir: test.json)
# `audiograph play` at a 128-frame period on hw:Loopback,0,0, captured on hw:Loopback,1,0; 100 times
# a new process connects, sends a chord (pedal down every third time) and exits or deletes its port
# without a note-off (before that, the control socket is abused while a chord holds). After the last: 0 voices in `status --json`; the host checks the capture
# goes silent within the release time.
set -u
source "$(dirname "$0")/guest-lib.sh"
start_abuse_test "$@"
nap 0.5

# First the control socket, abused while a chord holds (its sender then goes too: 101 sources gone).
python3 "$HELPER" control "$AG" AudioGraph:0 8 > control.txt 2>&1
cat control.txt
grep -q "^control PASS" control.txt && pass "control socket: one-line errors, idle client cut off, chord unchanged" \
    || failc "control socket abuse"
python3 "$HELPER" vanish "$AG" AudioGraph:0 100 > vanish.txt 2>&1
cat vanish.txt
[[ $(field vanish.txt vanished count) == 100 ]] && pass "100 sources vanished mid-chord" || failc "the vanishing sources did not all run"
[[ $(field vanish.txt after voices) == 0 ]] && pass "0 voices (no stuck note) after the last one" || failc "$(field vanish.txt after voices) voices stuck"
released=$(grep -c "gone: released" ag.txt)
echo "audiograph logged $released sources gone with notes released"
[[ $released -ge 100 ]] && pass "every vanished source's notes were released" || failc "only $released sources' notes released"
stop_play_and_capture "source vanish" vanish.txt 4
