#!/bin/bash
# Autoconnect against rtpmidid-shaped ports, and CLI controllers that hold. Runs INSIDE the
# alsa-vm guest (see run-autoconnect-rtpmidid.sh, which analyses capture.wav on the host afterwards).
#   usage: autoconnect-rtpmidid.sh AUDIOGRAPH rtpmidid-standin.py sine-rig.json
# One `audiograph play --autoconnect --autoconnect-include 'rtpmidid:Midi Through-Midi Through Port-0'`
# on hw:Loopback,0,0 while arecord captures hw:Loopback,1,0:
#   1. rtpmidid-standin.py makes rtpmidid's ports (private Announcements, Network Export, a
#      discovered remote, a session named after a remote's Midi Through port): only the session is
#      subscribed, the log gives a reason per port, its notes are heard (host: pitch), and when the
#      session ends holding a note, the note is released; `status` lists the session as MIDI in
#      while it is subscribed, and not after.
#   2. `audiograph cc 64 127`, `audiograph note` (0.2 s), then the pedal still holds the note after
#      both commands exited, until `audiograph cc 64 0`.
set -u
AG=${1:?usage: autoconnect-rtpmidid.sh AUDIOGRAPH rtpmidid-standin.py sine-rig.json}
STANDIN=${2:?usage: autoconnect-rtpmidid.sh AUDIOGRAPH rtpmidid-standin.py sine-rig.json}
INSTRUMENT=${3:?usage: autoconnect-rtpmidid.sh AUDIOGRAPH rtpmidid-standin.py sine-rig.json}
source "$(dirname "$0")/guest-lib.sh"
section() { echo; echo "=== $*"; }
now_ns() { local t=$EPOCHREALTIME; echo "${t/./}000"; }
mono_of() { sed -n "s/.*$2.* mono=\([0-9]*\).*/\1/p" "$1" | head -1; }   # mono= of the first line matching
rm -f -- *.txt capture.wav
CAP=/dev/shm/capture.wav
SESSION='Midi Through-Midi Through Port-0'

section "start: audiograph play --autoconnect --autoconnect-include 'rtpmidid:$SESSION'"
"$AG" play --device hw:Loopback,0,0 --period 1024 --periods 3 --instrument "$INSTRUMENT" \
    --set synth.sustain=1 --set synth.release=0.05 --set bus.sampler.mute=on \
    --autoconnect --autoconnect-include "rtpmidid:$SESSION" > ag.txt 2>&1 &
ag=$!
until_true 1200 has ag.txt "audio thread:" || { failc "audiograph did not start"; cat ag.txt; kill $ag; exit 1; }
format=$(sed -n 's/^format: //p' /proc/asound/card0/pcm0p/sub0/hw_params)
arecord -q -D hw:Loopback,1,0 -f "$format" -r 48000 -c 2 --buffer-size=9600 "$CAP" 2> arecord.txt &
rec=$!
until_true 200 pcm_running card0/pcm1c/sub0 || failc "arecord did not start"
grep -q "autoconnect: skip 14:0 'Midi Through:Midi Through Port-0' (kernel Midi Through client" ag.txt \
    && pass "log: kernel Midi Through skipped as the kernel client" || failc "no skip line for Midi Through 14:0"

section "1. an rtpmidid stand-in: private port, export port, discovered remote, session '$SESSION'"
python3 "$STANDIN" rtpmidid 2 > standin.txt 2>&1 &
standin=$!
until_true 400 has standin.txt "session subscribed" || failc "the session port was never subscribed"
created=$(mono_of standin.txt "'$SESSION' created"); subscribed=$(mono_of standin.txt "session subscribed")
if [[ -n $created && -n $subscribed ]]; then
    ms=$(( (subscribed - created) / 1000000 ))
    echo "session-subscribe-ms $ms" >> figures.txt
    (( ms < 1000 )) && pass "session port subscribed $ms ms after it appeared" || failc "subscription took $ms ms"
fi
"$AG" status > status-session.txt 2>&1  # while the session is subscribed (it stays ~2.4 s)
until_true 400 has standin.txt "subscribers " || failc "stand-in did not report subscribers"
aconnect -l > aconnect.txt
C=$(awk "/port .* 'Announcements' created/{split(\$2, a, \":\"); print a[1]; exit}" standin.txt)
grep "subscribers " standin.txt
line=$(grep "subscribers " standin.txt)
[[ $line == *"Midi_Through-Midi_Through_Port-0=1"* ]] && pass "kernel: the session port has 1 subscriber" || failc "session subscribers: $line"
for port in Announcements Network_Export Studio_Mac; do
    [[ $line == *"$port=0"* ]] && pass "kernel: $port has no subscriber" || failc "$port was subscribed: $line"
done
grep -A12 "'rtpmidid'" aconnect.txt
until_true 100 has standin.txt "done" || failc "stand-in did not finish"
wait $standin || failc "stand-in rc $?"
cat standin.txt
# MIDI in also lists what autoconnect took besides (the rig's VirMIDI ports).
grep "^MIDI in: " status-session.txt | grep -qF "rtpmidid:$SESSION ($C:3)" && pass "status: MIDI in lists the session port ($C:3)" \
    || failc "status while subscribed: $(grep 'MIDI in' status-session.txt)"
"$AG" status > status-after.txt 2>&1
grep -q "^MIDI in: " status-after.txt && ! grep -qF "rtpmidid:" status-after.txt \
    && pass "status: the session gone from MIDI in once it ended" || failc "status after the session: $(grep 'MIDI in' status-after.txt)"
for expected in \
    "take $C:3 'rtpmidid:$SESSION' (included by 'rtpmidid:$SESSION')" \
    "skip $C:0 'rtpmidid:Announcements' (rtpmidid's private port: NO_EXPORT)" \
    "skip $C:1 'rtpmidid:Network Export' (rtpmidid's export port" \
    "skip $C:2 'rtpmidid:Studio Mac' (rtpmidid peer: an incoming session or a remote only discovered"; do
    grep -qF "autoconnect: $expected" ag.txt && pass "log: $expected" || failc "log lacks: $expected"
done
until_true 40 has ag.txt "MIDI source $C:3 gone" || true
grep -q "MIDI source $C:3 gone: released 1 held note" ag.txt && pass "log: session ended holding E5 -> released 1 held note" \
    || failc "no release when the session port went"
nap 0.5

section "2. audiograph cc 64 127, note C5 0.2 s: held by the pedal after both commands exited, until cc 64 0"
"$AG" cc 64 127 --channel 2 || failc "cc 64 127 rc $?"
t_on=$(now_ns)
"$AG" note C5 --duration 0.2 --channel 2 || failc "note rc $?"
t_ret=$(now_ns)
nap 1.2
"$AG" status --json > status.json 2>/dev/null
voices=$(json_int status.json voices)
[[ ${voices:-0} -ge 1 ]] && pass "status: $voices voice still sounding 1.2 s after 'note' (0.2 s) and both commands exited" \
    || failc "status voices '${voices:-?}' after the commands exited: the pedal was lifted"
grep "command sender" ag.txt | tail -2
t_up=$(now_ns)
"$AG" cc 64 0 --channel 2 || failc "cc 64 0 rc $?"
t_done=$(now_ns)
voices_zero() { "$AG" status --json > status.json 2>/dev/null && [[ $(json_int status.json voices) == 0 ]]; }
until_true 40 voices_zero && pass "status: voices back to 0 after cc 64 0" || failc "voices still $(json_int status.json voices) after cc 64 0"
# C5 sounded from before t_ret - 0.2 s (the note command returned) to after t_up (cc 64 0 not yet
# sent), and from after t_on to before t_done (cc 64 0 sent): the host checks its length between.
echo "held-after-exit-ms $(( (t_up - t_ret) / 1000000 ))" >> figures.txt
echo "pedal-window-ms $(( (t_done - t_on) / 1000000 ))" >> figures.txt
nap 0.5

section "stop"
kill -TERM $ag; wait $ag || failc "audiograph rc $?"
kill -INT $rec; wait $rec
cp "$CAP" capture.wav
echo "--- audiograph log"; cat ag.txt
cat figures.txt
echo
echo "autoconnect rtpmidid guest checks: $fails failed"
[[ $fails == 0 ]]
