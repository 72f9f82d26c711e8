#!/bin/bash
# The systemd unit's command line started before there is a sound card. Runs INSIDE the alsa-vm
# guest, booted with no PCM card (see run-unit-start.sh).
#   usage: unit-start.sh /path/to/audiograph /path/to/audiograph.service.in
# The unit's ExecStart is run as systemd would run it (@BINDIR@ = the build, $AUDIOGRAPH_ARGS
# from audiograph.env in the working directory, NOTIFY_SOCKET an abstract socket listened to here):
# it must wait for the device saying so, not exit and not report ready; once snd-aloop is loaded it
# must open ALSA's default device, send READY=1 and play a note that arecord keeps for the host;
# on SIGTERM it sends STOPPING=1 and exits 0.
set -u
AG=${1:?usage: unit-start.sh /path/to/audiograph /path/to/unit}
UNIT=${2:?usage: unit-start.sh /path/to/audiograph /path/to/unit}
source "$(dirname "$0")/guest-lib.sh"
rm -f -- *.txt notify.log capture.wav
SOCKET=@audiograph-rig-notify

[[ ! -e /proc/asound/card0 ]] && pass "no sound card at start" || failc "card 0 present: $(cat /proc/asound/cards)"
# The notification listener: one line per datagram, as systemd would read them.
python3 -u - "$SOCKET" > notify.log <<'PY' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind("\0" + sys.argv[1][1:])
print("listening", flush=True)
while True:
    print(s.recv(4096).decode().replace("\n", " | "), flush=True)
PY
listener=$!
until_true 600 has notify.log listening || { failc "notify listener did not start"; exit 1; }

source ./audiograph.env
exec_start=$(sed -n 's/^ExecStart=//p' "$UNIT")
exec_start=${exec_start//@BINDIR@/$(dirname "$AG")}
read -r -a command <<< "${exec_start//\$AUDIOGRAPH_ARGS/$AUDIOGRAPH_ARGS}"
echo "ExecStart: ${command[*]}"
NOTIFY_SOCKET=$SOCKET "${command[@]}" > ag.txt 2>&1 &
ag=$!
until_true 1200 has ag.txt "waiting for playback device" && pass "log: waiting for the playback device" \
    || { failc "no waiting line"; cat ag.txt; }
until_true 200 has notify.log "STATUS=waiting for playback device" && pass "status (sd_notify): $(grep -m1 STATUS= notify.log)" \
    || failc "no waiting STATUS= notification"
nap 3
kill -0 $ag 2>/dev/null && pass "still running after 3 s without a device" || failc "exited without a device: $(cat ag.txt)"
grep -q "READY=1" notify.log && failc "READY=1 before the device was there" || pass "not ready while waiting"
attempts=$(grep -o 'attempt [0-9]*' notify.log | tail -1)
loaded=$(date +%s.%N)
modprobe snd-aloop index=0 && pass "snd-aloop loaded (the device arrives)" || failc "modprobe snd-aloop"
until_true 400 has notify.log "READY=1" && pass "READY=1 $(awk -v a="$loaded" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s after the card appeared (back-off was at $attempts)" \
    || { failc "no READY=1"; cat ag.txt; }
grep -q "READY=1 | STATUS=playing" notify.log && pass "READY=1 came with STATUS=playing" || failc "no STATUS with READY=1"
has ag.txt "MIDI input:" && has ag.txt "audio thread:" && pass "MIDI port and audio thread up before READY" || failc "log: $(cat ag.txt)"
until_true 200 pcm_running card0/pcm0p/sub0 && pass "playing on the loopback card" || failc "PCM not running"
format=$(sed -n 's/^format: //p' /proc/asound/card0/pcm0p/sub0/hw_params)
arecord -q -D hw:Loopback,1,0 -f "$format" -r 48000 -c 2 /dev/shm/capture.wav 2> arecord.txt &
rec=$!
until_true 200 pcm_running card0/pcm1c/sub0 || failc "arecord did not start"
"$AG" note A4 --duration 1.5 --channel 2 && pass "note sent through the sequencer" || failc "audiograph note"
nap 0.3
kill -INT $rec; wait $rec
kill -TERM $ag
wait $ag && pass "SIGTERM: exit 0" || failc "exit status after SIGTERM"
until_true 100 has notify.log "STOPPING=1" && pass "STOPPING=1 sent" || failc "no STOPPING=1"
kill $listener
cp /dev/shm/capture.wav capture.wav
cat ag.txt; echo "--- notifications"; cat notify.log
echo "unit start guest checks: $fails failed"
[[ $fails == 0 ]]
