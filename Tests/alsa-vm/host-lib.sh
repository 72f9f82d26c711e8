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
