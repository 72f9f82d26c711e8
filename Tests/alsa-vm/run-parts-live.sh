#!/bin/bash
# Host side of the 16-part rig test: `audiograph play` on the loopback card, `aplaymidi` of a
# song that plays every one of the 16 channels (each after a program change, channel 10 on the drum
# bank, channel 2 on the synth) and a VirMIDI "keyboard" on channel 7; the host then finds every
# channel's note in the loopback capture (parts-analyse.py).
#   Tests/alsa-vm/run-parts-live.sh        (the rig is Tests/alsa-vm/run-in-alsa-vm; KEEP=1 keeps files)
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/host-lib.sh"

make_work parts-live
# Every program and the drum bank play the sine-oscillator preset (it loads in seconds under the
# rig's software CPU); channel 2 starts on the synth. Every channel plays (no channels.play).
every_program_instrument "parts rig test" "$REPO/Presets/Sine.aupreset" \
    '"channels": { "start": { "2": "synth" } }, "parameters": { "synth.attack": 0.001, "synth.release": 0.05 }'
python3 "$HERE/parts-analyse.py" song "$WORK/song.mid" || exit 2

"$RIG/run-in-alsa-vm" -v --files "$WORK" --timeout 240 -- bash "$HERE/parts-live.sh" "$AG"
status=$?
echo
echo "=== host: capture analysis"
python3 "$HERE/parts-analyse.py" analyse "$WORK/capture.wav" || status=1
echo
rig_verdict "parts live rig test"
