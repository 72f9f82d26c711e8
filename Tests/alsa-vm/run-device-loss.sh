#!/bin/bash
# Host side of the device-loss rig test (see device-loss.sh).   SKIP_BUILD=1 uses the built binary.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/host-lib.sh"
make_work device-loss
echo "{ \"name\": \"device loss rig test\", \"preset\": \"$REPO/Presets/Sine.aupreset\" }" > "$WORK/test.json"
"$RIG/run-in-alsa-vm" --files "$WORK" --timeout 200 -- bash "$HERE/device-loss.sh" "$AG"
status=$?
rig_verdict "device loss rig test"
