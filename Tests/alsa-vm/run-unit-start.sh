#!/bin/bash
# Host side of the unit start-up rig test (see unit-start.sh): the guest boots with the sequencer
# and virtual MIDI but no PCM card; the capture of the note played once the card appears is
# measured here.   SKIP_BUILD=1 uses the built binary.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/host-lib.sh"
make_work unit-start
sine_instrument "unit start rig test"
# What a user puts in ~/.config/audiograph/audiograph.env (periods of 50 ms or more: the rig's CPU is emulated).
echo "AUDIOGRAPH_ARGS=\"--instrument $WORK/test.json --period 1024 --periods 3\"" > "$WORK/audiograph.env"
"$RIG/run-in-alsa-vm" --modules "snd-virmidi index=2;snd-seq-dummy" --files "$WORK" --timeout 200 -- \
    bash "$HERE/unit-start.sh" "$AG" "$REPO/scripts/systemd/audiograph.service.in"
status=$?
echo "=== host: the note played once the card appeared (A4)"
measure_capture capture.wav --expect-hz 440 --tol-hz 2 --min-seconds 1.2 || status=1
rig_verdict "unit start rig test"
