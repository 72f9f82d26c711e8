#!/bin/bash
# README command 1 on a machine with a sound card: `audiograph demo` plays the bundled demo live on
# ALSA's default device (the loopback card in the rig) and exits when the song has finished
# sounding. Runs INSIDE the alsa-vm guest; arecord keeps what came out for the host to compare
# with an offline render.   usage: demo-live.sh /path/to/audiograph
AG=${1:?usage: demo-live.sh /path/to/audiograph}
source "$(dirname "$0")/guest-lib.sh"
# The capture runs before the demo starts, so the song's first note cannot come before arecord (a
# process start in the guest costs up to half a second). The side that opens the loopback first fixes
# its format, and `default` (dmix) insists on its own: learn it from a short aplay first.
aplay -q -D default -f S16_LE -r 48000 -c 2 /dev/zero 2> /dev/null &
probe=$!
until_true 200 grep -q "^format:" /proc/asound/card0/pcm0p/sub0/hw_params
format=$(sed -n 's/^format: //p' /proc/asound/card0/pcm0p/sub0/hw_params)
kill $probe; wait $probe 2> /dev/null
until_true 200 grep -q closed /proc/asound/card0/pcm0p/sub0/hw_params
arecord -q -D hw:Loopback,1,0 -f "$format" -r 48000 -c 2 /dev/shm/cap.wav 2> arec.txt &
rec=$!
until_true 200 pcm_running card0/pcm1c/sub0 || echo "capture never started: $(cat arec.txt)"
start=$EPOCHREALTIME
"$AG" demo --period 2048 --periods 3 > demo.txt 2>&1 &
ag=$!
wait $ag; echo "demo exit $? after $(echo "$EPOCHREALTIME - $start" | bc) s"
kill -INT $rec; wait $rec
cp /dev/shm/cap.wav cap.wav
tr '\r' '\n' < demo.txt | grep -v "^$" | tail -6
