# Shared set-up for the host side of the rig tests (sourced, not run): the repository, the rig
# (this directory: run-in-alsa-vm, wavcheck.py) and the release `audiograph` (built unless
# SKIP_BUILD=1). Sets REPO, RIG, AG. ALSA_VM_DIR points RIG at another copy of the rig.
REPO=$(cd "$HERE/../.." && pwd)
RIG=${ALSA_VM_DIR:-$REPO/Tests/alsa-vm}
cd "$REPO" || exit 2
if [[ ${SKIP_BUILD:-0} != 1 ]]; then
    swift build -c release --product audiograph || exit 2
fi
AG=$(swift build -c release --show-bin-path)/audiograph
[[ -x $AG ]] || { echo "missing $AG"; exit 2; }

# WORK: a directory for the guest's files (--files DIR), removed on exit unless KEEP=1.
make_work() {
    WORK=$(mktemp -d "/tmp/$1.XXXXXX")
    if [[ ${KEEP:-0} == 1 ]]; then echo "work directory: $WORK"; else trap 'rm -rf "$WORK"' EXIT; fi
}
# $WORK/test.json: the sine-oscillator preset, which loads in seconds under the rig's emulated CPU.
# Dry (fx.enabled off): the rig tests time onsets, note lengths and silences, which a reverb tail
# (GM default send CC91 = 40) would blur.
sine_instrument() { echo "{ \"name\": \"$1\", \"preset\": \"$REPO/Presets/Sine.aupreset\", \"parameters\": { \"fx.enabled\": \"off\" } }" > "$WORK/test.json"; }
# A capture in $WORK (any format sox reads) measured by wavcheck.py: measure_capture FILE [wavcheck options].
measure_capture() {
    local file=$WORK/$1; shift
    sox "$file" -b 16 "${file%.wav}-16bit.wav" 2>/dev/null && python3 "$RIG/wavcheck.py" "${file%.wav}-16bit.wav" "$@"
}
# $WORK/test.json in which every program of banks 0 and 128 is PROGRAM ("synth" or a preset path),
# so that whatever program changes a test sends, every part plays one known sound.
#   usage: every_program_instrument NAME PROGRAM 'MORE MEMBERS'   (JSON: "channels", "parameters")
every_program_instrument() {
    cat > "$WORK/test.json" <<JSON
{ "name": "$1",
  "programs": { "0-127": "$2" },
  "banks": { "128": { "0-127": "$2" } },
  $3 }
JSON
}
# The abuse tests' host check (abuse-midi.py silence): $WORK/capture.wav goes silent within RELEASE
# seconds (default 0.45) of the release times the guest wrote in $WORK/RESULTS.
#   usage: capture_goes_silent RESULTS
capture_goes_silent() {
    sox "$WORK/capture.wav" -t f32 "$WORK/capture.f32" && python3 "$HERE/abuse-midi.py" silence "$WORK/capture.f32" "$WORK/$1" "${RELEASE:-0.45}"
}
# The last line of a host script: says whether the rig test NAME passed ($status 0), exits with $status.
#   usage: rig_verdict NAME
rig_verdict() {
    [[ $status == 0 ]] && echo "$1: PASS" || echo "$1: FAIL"
    exit "$status"
}
