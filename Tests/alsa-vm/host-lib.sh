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
