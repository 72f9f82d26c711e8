#!/bin/bash
# Host side of the MIDI flood rig test (see midi-flood.sh): writes the 1,000,000-event flood,
# boots the rig, then checks the loopback capture goes silent within the release time after
# all-notes-off: within the synth's 0.05 s release, plus up to 0.4 s the measurement cannot
# resolve (the 21 ms playback buffer, arecord's 200 ms buffer at its stop, what waits in the ring).   SKIP_BUILD=1 uses the built binary; KEEP=1 keeps the work directory.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/host-lib.sh"
make_work midi-flood
# Every program and the drum bank play the sine synth, 2 voices at most; the baseline holds as many
# notes. Not a sampler preset: under the rig's emulated CPU one voice of the sine preset cost
# ~24 % of this period with the former step-following kernel (its one-cycle table stepped ~19
# frames per output frame through 32 taps per frame stepped), so every note-on of the flood,
# stealing a voice that fades out beside its successor, measured the sampler rather than the MIDI
# path. The live kernel is now a 4-point cubic on band-limited levels; not re-measured here yet.
every_program_instrument "flood rig test" synth '"parameters": { "synth.voices": 2, "synth.release": 0.05, "fx.enabled": "off" }'
python3 "$HERE/abuse-midi.py" flood-file "$WORK/flood.bin" "${COUNT:-1000000}" 20261123 || exit 2
# One guest CPU: the flood's sender and MIDI reader then share it with the render thread, which
# preempts both (SCHED_FIFO), so an underrun is the render thread's own lateness. With two, the
# three keep both emulated CPUs busy, and their host threads compete with everything else on the
# host: the render thread's CPU was then late for the host's reasons (a run measured 2.7
# underruns/s during the flood with the render thread at 25 % of its CPU, 0.17/s before it).
"$RIG/run-in-alsa-vm" -v --cpus "${CPUS:-1}" --files "$WORK" --timeout ${TIMEOUT:-200} -- bash "$HERE/midi-flood.sh" "$AG" "$HERE/abuse-midi.py"
status=$?
echo "=== host: capture analysis"
capture_goes_silent flood.txt || status=1
rig_verdict "MIDI flood rig test"
