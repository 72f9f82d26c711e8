# Shared set-up for the host side of the instrument rig tests (sourced, not run): the repository,
# the rig, and the release `audiograph` (built unless SKIP_BUILD=1). Sets REPO, RIG, AG.
REPO=$(cd "$HERE/../.." && pwd)
RIG=${ALSA_VM_DIR:-$REPO/../shared/alsa-vm}
cd "$REPO" || exit 2
if [[ ${SKIP_BUILD:-0} != 1 ]]; then
    swift build -c release --product audiograph || exit 2
fi
AG=$(swift build -c release --show-bin-path)/audiograph
[[ -x $AG ]] || { echo "missing $AG"; exit 2; }

# A work directory for the rig's files, removed at exit unless KEEP=1 (then its path is printed).
# Sets WORK.   usage: work_directory NAME
work_directory() {
    WORK=$(mktemp -d "/tmp/$1.XXXXXX")
    if [[ ${KEEP:-0} == 1 ]]; then echo "work directory: $WORK"; else trap 'rm -rf "$WORK"' EXIT; fi
}
