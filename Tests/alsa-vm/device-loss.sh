#!/bin/bash
# A playback device that disappears and comes back. Runs INSIDE the alsa-vm guest.
#   usage: device-loss.sh /path/to/audiograph      (working directory holds test.json)
# snd-dummy's card is unbound under a running `audiograph play` (as when a USB interface is
# unplugged): the lost device must be closed at once (or the kernel's unbind never returns), a
# note-off sent during the outage must still be applied, and once the card is back the instrument
# reopens it and plays on.
source "$(dirname "$0")/guest-lib.sh"
AG=${1:?usage: device-loss.sh /path/to/audiograph}
voices() { "$AG" status --json > status.json 2>/dev/null && [[ $(json_int status.json voices) == "$1" ]]; }
"$AG" play --device hw:Dummy,0,0 --period 2048 --periods 3 --instrument test.json --set synth.release=0.05 > ag.txt 2>&1 &
ag=$!
until_true 600 has ag.txt "audio thread:" || { failc "audiograph did not start"; cat ag.txt; exit 1; }
"$AG" note A4 --duration 3 --channel 2 &
sender=$!
until_true 100 voices 1 && pass "a held note sounds (1 voice)" || failc "voices $(json_int status.json voices) before the outage"
timeout 10 sh -c 'echo snd_dummy.0 > /sys/bus/platform/drivers/snd_dummy/unbind' \
    && pass "card unbound: the lost device was closed" || failc "unbind did not return: the lost device stayed open"
until_true 100 has ag.txt "playback device lost" && pass "log: playback device lost" || failc "loss not reported"
wait $sender   # its note-off arrives while there is no device
until_true 100 voices 0 && pass "the note-off sent during the outage was applied (0 voices)" || failc "voices $(json_int status.json voices) after the note-off"
echo snd_dummy.0 > /sys/bus/platform/drivers/snd_dummy/bind
until_true 200 has ag.txt "playback device reopened" && pass "device reopened after the card came back" || failc "not reopened"
"$AG" note C5 --duration 2 --channel 2 &
sender=$!
until_true 100 voices 1 && pass "plays on after the reopen (1 voice)" || failc "voices $(json_int status.json voices) after the reopen"
wait $sender
kill -TERM $ag; wait $ag && pass "SIGTERM: exit 0" || failc "exit status"
grep -E "lost|reopen" ag.txt
echo "device loss guest checks: $fails failed"
[[ $fails == 0 ]]
