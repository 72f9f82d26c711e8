# Shared set-up for the sound-server tests (sourced, not run). Every daemon runs as the caller
# under a private HOME, XDG_RUNTIME_DIR, XDG_CONFIG_HOME and XDG_STATE_HOME in the test's
# temporary directory ($T), is started by `start_daemon` and stopped by its PID on exit (KEEP=1
# keeps $T). No sound card and no kernel ALSA are needed.
#
# PipeWire's ALSA plugin comes from the pipewire-alsa package, unpacked into a cache (not
# installed: it would point every process's ALSA `default` at PipeWire, and it conflicts with the
# real `pulseaudio` tested here too). The tests load it through $HOME/.asoundrc, exactly as the
# package's two configuration files would, so `default` goes to PipeWire inside the test only.
# Sets REPO, AG, T; SKIP_BUILD=1 uses the built binary.
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SERVERS=$REPO/Tests/servers
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/audiograph/servers
cd "$REPO" || exit 2
if [[ ${SKIP_BUILD:-0} != 1 ]]; then
    swift build -c release --product audiograph || exit 2
fi
AG=$(swift build -c release --show-bin-path)/audiograph
[[ -x $AG ]] || { echo "missing $AG"; exit 2; }

fails=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
now() { date +%s.%N; }
# until_true TENTHS CMD...: polls CMD every 0.1 s, at most TENTHS times.
until_true() { local n=$1 i; shift; for ((i = 0; i < n; i++)); do "$@" && return 0; sleep 0.1; done; return 1; }
has() { grep -q -- "$2" "$1" 2>/dev/null; }

# Installs what is missing (apt-get; root or sudo).
need_packages() {
    local missing=() p
    for p in "$@"; do dpkg -s "$p" > /dev/null 2>&1 || missing+=("$p"); done
    (( ${#missing[@]} )) || return 0
    local sudo=""; [[ $(id -u) == 0 ]] || sudo=sudo
    echo "installing ${missing[*]}"
    $sudo apt-get update -qq -o DPkg::Lock::Timeout=600 || true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        -o DPkg::Lock::Timeout=600 "${missing[@]}" > /dev/null || { echo "cannot install ${missing[*]}"; exit 2; }
}

T=$(mktemp -d /tmp/ag-servers.XXXXXX)
PIDS=()
NAMES=()
cleanup() {
    local i
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do stop_pid "${PIDS[i]}"; done
    [[ -n ${JACK_DEFAULT_SERVER:-} ]] && rm -rf /dev/shm/jack_"$JACK_DEFAULT_SERVER"_* /dev/shm/jack_sem.*_"$JACK_DEFAULT_SERVER"_* 2> /dev/null
    if [[ ${KEEP:-0} == 1 ]]; then echo "kept $T"; else rm -rf "$T"; fi
}
trap cleanup EXIT
mkdir -p "$T/home" "$T/run" "$T/config" "$T/state"
chmod 700 "$T/run"
export HOME=$T/home XDG_RUNTIME_DIR=$T/run XDG_CONFIG_HOME=$T/config XDG_STATE_HOME=$T/state
export DBUS_SESSION_BUS_ADDRESS="unix:path=$T/run/bus"
# No libpulse client (pactl, parec, the pulse plugin, timing.py) may start a PulseAudio of its own.
mkdir -p "$T/config/pulse" && echo "autospawn = no" > "$T/config/pulse/client.conf"
unset PULSE_SERVER PIPEWIRE_REMOTE JACK_PROMISCUOUS_SERVER

# stop_pid PID: SIGTERM, then SIGKILL after 2 s; reaps it when it is our child.
stop_pid() {
    local pid=$1 i
    kill -0 "$pid" 2> /dev/null || { wait "$pid" 2> /dev/null; return 0; }
    kill -TERM "$pid" 2> /dev/null
    for ((i = 0; i < 20; i++)); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2> /dev/null
    wait "$pid" 2> /dev/null
    return 0
}
# stamp_lines: each line of stdin, prefixed with the time it was read (seconds, as `now` prints).
stamp_lines() { local line; while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "$line"; done; }
# start_daemon NAME CMD...: runs CMD in its own session, output in $T/NAME.log (each line stamped
# with the time it came when STAMP=1); sets PID_<NAME>.
start_daemon() {
    local name=$1; shift
    if [[ ${STAMP:-0} == 1 ]]; then
        setsid "$@" > >(stamp_lines >> "$T/$name.log") 2>&1 &
    else
        setsid "$@" >> "$T/$name.log" 2>&1 &
    fi
    local pid=$!
    PIDS+=("$pid")
    printf -v "PID_$name" %s "$pid"
}
# kill_daemon NAME [SIGNAL]: kills it now (default SIGKILL: a crash), and waits for it to go.
kill_daemon() {
    local var="PID_$1"
    kill "-${2:-KILL}" "${!var}" 2> /dev/null
    wait "${!var}" 2> /dev/null
    return 0
}
# cpu_ticks PID: user + system clock ticks the process has used so far (/proc/PID/stat).
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
TICKS=$(getconf CLK_TCK)

start_dbus() {
    dbus-daemon --session --nofork --address="$DBUS_SESSION_BUS_ADDRESS" > "$T/dbus.log" 2>&1 &
    PIDS+=("$!")
    until_true 50 test -S "$T/run/bus" || { echo "dbus did not start"; exit 2; }
}

# --- PipeWire 0.3 + WirePlumber + pipewire-pulse, with a null sink "testsink" from a config file
# (it comes back by itself when the daemon restarts).
PIPEWIRE_PACKAGES=(pipewire pipewire-bin wireplumber pipewire-pulse pipewire-jack pulseaudio-utils libasound2-plugins dbus bc)
pipewire_alsa_plugin() {
    local dir=$CACHE/pipewire-alsa
    if [[ ! -d $dir/usr/lib ]]; then
        mkdir -p "$CACHE/debs" && (cd "$CACHE/debs" && apt-get download pipewire-alsa > /dev/null 2>&1) \
            || { echo "cannot download pipewire-alsa"; exit 2; }
        mkdir -p "$dir" && dpkg-deb -x "$CACHE"/debs/pipewire-alsa_*.deb "$dir" || exit 2
    fi
    local lib; lib=$(dirname "$(find "$dir/usr/lib" -name libasound_module_pcm_pipewire.so | head -1)")
    cat > "$HOME/.asoundrc" <<ASOUNDRC
pcm_type.pipewire { lib "$lib/libasound_module_pcm_pipewire.so" }
ctl_type.pipewire { lib "$lib/libasound_module_ctl_pipewire.so" }
</$dir/usr/share/alsa/alsa.conf.d/50-pipewire.conf>
</$dir/usr/share/alsa/alsa.conf.d/99-pipewire-default.conf>
ASOUNDRC
}
pipewire_config() {
    mkdir -p "$XDG_CONFIG_HOME/pipewire/pipewire.conf.d"
    cat > "$XDG_CONFIG_HOME/pipewire/pipewire.conf.d/10-null-sink.conf" <<'CONF'
context.objects = [ { factory = adapter args = { factory.name = support.null-audio-sink node.name = "testsink"
  node.description = "Test sink" media.class = "Audio/Sink" audio.position = [ FL FR ] audio.rate = 48000
  object.linger = true monitor.channel-volumes = true } } ]
CONF
}
sink_ready() { timeout 5 pw-cli ls Node 2> /dev/null | grep -q 'node.name = "testsink"'; }
pulse_ready() { timeout 5 pactl info > /dev/null 2>&1; }
start_pipewire() {
    start_daemon pipewire pipewire
    until_true 50 test -S "$XDG_RUNTIME_DIR/pipewire-0" || { echo "pipewire did not start"; cat "$T/pipewire.log"; exit 2; }
    start_daemon wireplumber wireplumber
    start_daemon pipewire_pulse pipewire-pulse
    until_true 100 sink_ready || { echo "no testsink"; cat "$T/pipewire.log" "$T/wireplumber.log"; exit 2; }
    until_true 100 pulse_ready || { echo "pipewire-pulse did not start"; cat "$T/pipewire_pulse.log"; exit 2; }
}
stop_pipewire() { kill_daemon pipewire_pulse; kill_daemon wireplumber; kill_daemon pipewire; }

# --- PulseAudio (the real daemon), with a null sink "testsink".
start_pulseaudio() {
    start_daemon pulseaudio pulseaudio --daemonize=no --system=no --exit-idle-time=-1 --disallow-exit -n \
        --log-target=stderr -L module-native-protocol-unix \
        -L "module-null-sink sink_name=testsink rate=48000 channels=2" -L module-always-sink
    until_true 100 pulse_ready || { echo "pulseaudio did not start"; cat "$T/pulseaudio.log"; exit 2; }
}

# --- jackd2's dummy driver, under a server name of its own (its sockets and shared memory are
# in /dev/shm, named after the server; removed on exit). Its log is stamped: its xrun reports
# ("client = X was not finished, state = Triggered") are matched by time with the recordings.
export JACK_NO_AUDIO_RESERVATION=1 JACK_NO_START_SERVER=1
start_jackd() {  # start_jackd PERIOD [RATE]
    export JACK_DEFAULT_SERVER=${JACK_DEFAULT_SERVER:-agtest$$}
    STAMP=1 start_daemon jackd jackd ${JACKD_REALTIME:---realtime -P 80} -n "$JACK_DEFAULT_SERVER" -d dummy -r "${2:-48000}" -p "${1:-256}"
    timeout 15 jack_wait -w -t 10 > /dev/null 2>&1 || { echo "jackd did not start"; cat "$T/jackd.log"; exit 2; }
}
# jack_xruns SINCE: the cycles jackd reported lost ("client = X was not finished") after the `now`
# stamp SINCE, in seconds from it, comma-separated, one per cycle.
jack_xruns() {
    awk -v since="$1" '$1 >= since && index($0, " was not finished, state = ") && $1 - last > 0.002 {
        printf "%s%.3f", sep, $1 - since; sep = ","; last = $1 }' "$T/jackd.log"
}

# control REQUEST...: one request to the running audiograph's control socket; prints the reply.
control() { python3 "$SERVERS/timing.py" send "$@"; }

# The sine preset, dry (fx.enabled off: a reverb tail would blur note ends and silences).
sine_instrument() {
    echo "{ \"name\": \"server test\", \"preset\": \"$REPO/Presets/Sine.aupreset\", \"parameters\": { \"fx.enabled\": \"off\" } }" > "$T/test.json"
}

# What every test through ALSA's pipewire plugin starts from: the packages, the plugin and the
# daemons' configuration under the test's directory, the Sine instrument, a session bus, and the
# shared checks (alsa-server-checks.sh).
prepare_pipewire_alsa() {
    need_packages "$@" "${PIPEWIRE_PACKAGES[@]}"
    pipewire_alsa_plugin
    pipewire_config
    sine_instrument
    start_dbus
    source "$SERVERS/alsa-server-checks.sh"
}
