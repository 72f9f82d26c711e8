#!/bin/bash
# README command 1 on a machine with a sound card: `audiograph demo` plays the bundled demo live on
# ALSA's default device (the loopback card in the rig) and exits when the song has finished
# sounding. Runs INSIDE the alsa-vm guest; arecord keeps what came out for the host to compare
# with an offline render.   usage: demo-live.sh /path/to/audiograph
AG=${1:?usage: demo-live.sh /path/to/audiograph}
source "$(dirname "$0")/guest-lib.sh"
start=$EPOCHREALTIME
# The side that opens first fixes the loopback's format: audiograph first, then arecord takes it.
"$AG" demo --period 2048 --periods 3 > demo.txt 2>&1 &
ag=$!
for ((i = 0; i < 1200; i++)); do grep -q "audio thread:" demo.txt && break; nap 0.1; done
format=$(sed -n 's/^format: //p' /proc/asound/card0/pcm0p/sub0/hw_params)
arecord -q -D hw:Loopback,1,0 -f "$format" -r 48000 -c 2 /dev/shm/cap.wav 2> arec.txt &
rec=$!
wait $ag; echo "demo exit $? after $(echo "$EPOCHREALTIME - $start" | bc) s"
kill -INT $rec; wait $rec
cp /dev/shm/cap.wav cap.wav
tr '\r' '\n' < demo.txt | grep -v "^$" | tail -6
