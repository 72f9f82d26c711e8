#!/bin/bash
# Host side of the vanishing-source rig test (see source-vanish.sh): boots the rig, then checks the
# loopback capture goes silent within the release time after the last source vanished (0.2 s, plus
# up to 0.25 s of playback and capture buffering the measurement cannot resolve).
#   SKIP_BUILD=1 uses the built binary; KEEP=1 keeps the work directory.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/host-lib.sh"
make_work source-vanish
# Every program plays the sine preset (0.2 s release); the synth (channel 2) releases in 50 ms.
every_program_instrument "vanishing source rig test" "$REPO/Presets/Sine.aupreset" \
    '"channels": { "start": { "2": "synth" } }, "parameters": { "synth.release": 0.05, "fx.enabled": "off" }'
"$RIG/run-in-alsa-vm" -v --files "$WORK" --timeout "${TIMEOUT:-200}" -- bash "$HERE/source-vanish.sh" "$AG" "$HERE/abuse-midi.py"
status=$?
echo "=== host: capture analysis"
capture_goes_silent vanish.txt || status=1
rig_verdict "source vanish rig test"
