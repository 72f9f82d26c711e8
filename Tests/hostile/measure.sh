#!/bin/bash
# Runs audiograph on each hostile file (made by make-hostile-files.py) and prints, per case:
# exit status, max RSS and elapsed time (GNU time), and its error line (else the last line it printed). A run still
# going after 60 s is killed (shown as "killed").
#   Tests/hostile/measure.sh DIR [path/to/audiograph]
set -u
dir=$1
bin=${2:-.build/release/audiograph}
out=$(mktemp -d)
run() {
    label=$1; shift
    /usr/bin/time -f '%x %M %e' -o "$out/time" "$bin" "$@" >"$out/log" 2>&1 </dev/null &
    local timer=$!
    sleep 0.2
    local child; child=$(pgrep -P "$timer" | head -n 1)
    ( sleep 60; [ -n "$child" ] && kill -9 "$child" 2>/dev/null ) &
    local watchdog=$!
    wait "$timer"
    kill "$watchdog" 2>/dev/null; wait "$watchdog" 2>/dev/null
    read -r code rss secs < <(tail -n 1 "$out/time")
    local signal; signal=$(sed -n 's/.*terminated by signal \([0-9]*\).*/\1/p' "$out/time")
    [ -n "$signal" ] && code="sig$signal"
    [ "$signal" = 9 ] && code="killed"
    printf '%-28s exit %-6s maxRSS %8s kB %7s s  %s\n' "$label" "$code" "$rss" "$secs" \
        "$( (grep -m 1 '^Error:' "$out/log" || grep -v '^\s*$' "$out/log" | tail -n 1) | cut -c1-160)"
}
run "check /dev/zero"          preset check /dev/zero
run "check fifo"               preset check "$dir/fifo"
run "check layers-10000"       preset check "$dir/layers-10000.aupreset"
run "check nan-blob"           preset check "$dir/nan-blob.aupreset"
run "render nan-blob"          render --preset "$dir/nan-blob.aupreset" --out "$out/a.wav"
run "render absurd-numbers"    render --preset "$dir/absurd-numbers.aupreset" --out "$out/a.wav"
run "render voices=1e308"      render --set synth.voices=1e308 --out "$out/a.wav"
run "render gain-1e19.json"    render --instrument "$dir/gain-1e19.json" --out "$out/a.wav"
run "render gain-1e400.json"   render --instrument "$dir/gain-1e400.json" --out "$out/a.wav"
run "render syntax-error.json" render --instrument "$dir/syntax-error.json" --out "$out/a.wav"
run "render preset /dev/zero"  render --instrument "$dir/dev-zero-preset.json" --out "$out/a.wav"
run "render huge-delta.mid"    render --midi "$dir/huge-delta.mid" --out "$out/a.wav"
run "render held-77h.mid"      render --midi "$dir/held-77h.mid" --out "$out/a.wav"
run "render cc-flood-8m.mid"   render --midi "$dir/cc-flood-8m.mid" --out "$out/a.wav"
run "render --midi fifo"       render --midi "$dir/fifo" --out "$out/a.wav"
run "render --input fifo"      render --input "$dir/fifo" --out "$out/a.wav"
run "render --input 6ch"       render --input "$dir/six-channels.wav" --out "$out/a.wav"
run "pitch rate-2147483647"    pitch "$dir/rate-2147483647.wav"
run "pitch claims-5e8.flac"    pitch "$dir/claims-5e8-frames.flac"
run "pitch truncated.wav"      pitch "$dir/truncated.wav"
run "pitch fifo"               pitch "$dir/fifo"
for font in "$dir"/sf2-*.sf2 "$dir"/sf3-*.sf3; do
    run "$(basename "$font")" soundfont list --verify --summary "$font"
done
run "preset check sf2-loop-outside" preset check "$dir/sf2-loop-outside.sf2"
run "soundfont list fifo"      soundfont list "$dir/fifo"
run "soundfont list /dev/zero" soundfont list /dev/zero
# Issue 21: outputs, command lines, text from outside.
run "render --out song (link)" render --midi "$dir/song.mid" --out "$dir/song-link.wav"
run "render --out fifo.wav"    render --out "$dir/fifo.wav"
run "render --out x.mp3"       render --out "$out/x.mp3"
run "render escape-key.json"   render --instrument "$dir/escape-key.json" --out "$out/a.wav"
run "render nul-path.json"     render --instrument "$dir/nul-path.json" --out "$out/a.wav"
run "render --preset loop"     render --preset "$dir/loop-a.aupreset" --out "$out/a.wav"
run "render --max-seconds -1"  render --max-seconds -1 --out "$out/a.wav"
run "note C922…807"            note C9223372036854775807
run "bend -4096 (no seq)"      bend -4096
run "bench --seconds nan"      bench --seconds nan
run "bench --block 0"          bench --block 0
run "bench --block 100000"     bench --block 100000
run "bench --voices=-5"        bench --voices=-5
run "soak --period 0"          soak --period 0
run "soak --minutes nan"       soak --minutes nan
run "play --duration nan"      play --duration nan
run "set a=1 (newline) b=2"    set "$(printf 'master.gain=-3\nmaster.gain=6')"
# Issue 21, memory bounds (RSS is the figure to read).
run "check big-sample"         preset check "$dir/big-sample.aupreset"
run "render big-sample 512MB"  render --instrument "$dir/big-sample.json" --midi "$dir/note-60.mid" --level-memory 512 --out "$out/a.wav"
run "render 128 presets 1 wav" render --instrument "$dir/shared-128.json" --midi "$dir/note-60-each-program.mid" --out "$out/a.wav"
run "render --input 512MB"     render --input "$dir/big-input-8ch-768k.wav" --max-seconds 10 --midi "$dir/note-60.mid" --out "$out/a.wav"
run "pitch 512MB input"        pitch "$dir/big-input-8ch-768k.wav"
rm -rf "$out"
