"""scripts/gm-levels: the level of every General MIDI program and drum key through AudioGraph's
default instrument next to FluidSynth 2.3 + FluidR3_GM, and the gains that would align them.

Melodic: each program plays the same phrase on channel 1 at velocity 100, as songs mostly play:
eight short notes (0.3 s each, 0.35 s apart: G3 C4 E4 G4 C5 G4 E4 C4), then C4 held 1.5 s (two
octaves lower for the basses, contrabass and tuba, one for cello, trombone, baritone sax and
bassoon), measured as the RMS of both channels over 6 s. Short notes weigh
most, so a percussive program is matched by its attack rather than by its tail. Drums: each kit (bank 128 program) strikes keys 27-87 at velocity 100 on
channel 10, 2.5 s apart, each measured as the RMS over the 1.0 s after the strike. Both sides
render at 48 kHz with reverb and chorus off; CC7 = 100 (the General MIDI default) on every
channel first.

Levels are relative: with the gains in effect, "offset" = ours - FluidSynth per program; the
suggested gain moves each program onto the median offset (so the whole set keeps its loudness and
only the balance between programs changes). --write puts the suggestions into
Instruments/default.json (the "gain" of each program and kit) and Sources/make-sounds/DrumLevels.swift
(each piece's level in its kit; then `swift run -c release make-sounds`, which rebuilds it with them). --markdown prints the tables as
docs/GM-BALANCE.md keeps them."""
import json
import os
import re
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gmtools  # noqa: E402

SEGMENT = 8.0
# Programs played lower, where songs play them: the basses, contrabass and tuba two octaves down,
# cello, trombone, baritone sax and bassoon one.
LOW = set(range(32, 40)) | {43, 58}
MIDDLE_LOW = {42, 57, 67, 70}
KITS = [0, 8, 16, 24, 25, 32, 40, 48]
DRUM_KEYS = range(27, 88)
DRUM_SPACING = 2.5
INSTRUMENT = os.path.join(gmtools.ROOT, "Instruments", "default.json")
DRUM_LEVELS = os.path.join(gmtools.ROOT, "Sources", "make-sounds", "DrumLevels.swift")


def melodic_song(path):
    events = [(0, bytes([0xB0, 7, 100]))]
    for program in range(128):
        start = program * SEGMENT
        events.append((start, bytes([0xC0, program])))
        shift = -24 if program in LOW else -12 if program in MIDDLE_LOW else 0
        for i, key in enumerate([55, 60, 64, 67, 72, 67, 64, 60]):
            events.append((start + 0.1 + 0.35 * i, bytes([0x90, key + shift, 100])))
            events.append((start + 0.4 + 0.35 * i, bytes([0x80, key + shift, 0])))
        events.append((start + 2.9, bytes([0x90, 60 + shift, 100])))
        events.append((start + 4.4, bytes([0x80, 60 + shift, 0])))
        events.append((start + 7.8, bytes([0xB0, 120, 0])))
    gmtools.write_smf(path, events)


def drum_song(path):
    events = [(0, bytes([0xB9, 7, 100]))]
    t = 0.0
    for kit in KITS:
        events.append((t, bytes([0xC9, kit])))
        for key in DRUM_KEYS:
            events.append((t + 0.1, bytes([0x99, key, 100])))
            events.append((t + 0.2, bytes([0x89, key, 0])))
            events.append((t + DRUM_SPACING - 0.05, bytes([0xB9, 120, 0])))
            t += DRUM_SPACING
    gmtools.write_smf(path, events)


def measure(render, midi, wav, windows, attacks=()):
    """Levels over `windows`; with `attacks` (note-on times), also each note's attack time."""
    render(midi, wav)
    audio = gmtools.read_audio(wav)
    levels = [gmtools.decibels(gmtools.window(audio, start, seconds)) for start, seconds in windows]
    return (levels, [attack_seconds(audio, t) for t in attacks]) if attacks else levels


def attack_seconds(audio, start, span=1.4):
    """Seconds from the note-on until the level (10 ms windows) first comes within 3 dB of its
    highest in the next `span` seconds."""
    steps = [gmtools.decibels(gmtools.window(audio, start + 0.01 * i, 0.01)) for i in range(int(span / 0.01))]
    peak = max(steps)
    return next(i for i, level in enumerate(steps) if level >= peak - 3) * 0.01


def drum_windows():
    windows, t = [], 0.0
    for _ in KITS:
        for _ in DRUM_KEYS:
            windows.append((t + 0.1, 1.0))
            t += DRUM_SPACING
    return windows


def kit_files():
    """(kit program, key) → (piece file, zone line) from the generated kit presets."""
    table = json.load(open(INSTRUMENT))
    files = {}
    for kit in KITS:
        preset = os.path.join(os.path.dirname(INSTRUMENT), table["banks"]["128"][str(kit)]["preset"])
        text = open(preset).read()
        references = dict(re.findall(r"<key>Sample:(\d+)</key>\s*<string>[^<]*/Drums/([^<]+)\.wav</string>", text))
        for zone in re.findall(r"<dict>\s*<key>ID</key>.*?</dict>", text, re.S):
            low = re.search(r"<key>min key</key>\s*<integer>(\d+)</integer>", zone)
            waveform = re.search(r"<key>waveform</key>\s*<integer>(\d+)</integer>", zone)
            if low and waveform:
                files[(kit, int(low.group(1)))] = references[waveform.group(1)]
    return files


def main():
    write = "--write" in sys.argv
    drums_only = "--drums" in sys.argv
    markdown = "--markdown" in sys.argv
    table = json.load(open(INSTRUMENT))
    with tempfile.TemporaryDirectory() as work:
        report(work, table, write, drums_only, markdown)


def report(work, table, write, drums_only, markdown):
    """Measures in `work` and prints (and with `write`, applies) the tables."""
    offsets = {}
    if not drums_only:
        midi = os.path.join(work, "melodic.mid")
        melodic_song(midi)
        windows = [(p * SEGMENT, 6.0) for p in range(128)]
        held = [p * SEGMENT + 2.9 for p in range(128)]
        ours, our_attacks = measure(gmtools.render_audiograph, midi, os.path.join(work, "ours.wav"), windows, held)
        theirs, their_attacks = measure(gmtools.render_fluidsynth, midi, os.path.join(work, "fs.wav"), windows, held)
        if markdown:
            print("| program | name | preset | FluidR3_GM dBFS | ours dBFS | offset dB | gain dB | attack FluidR3 / ours s |")
            print("| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |")
        else:
            print("program                         FluidR3  ours    offset  gain  suggested  attack FluidR3/ours")
        for p in range(128):
            offsets[p] = ours[p] - theirs[p]
        median = statistics.median(offsets.values())
        suggestions = {}
        for p in range(128):
            entry = table["programs"][str(p)]
            gain = entry.get("gain", 0) if isinstance(entry, dict) else 0
            suggestions[p] = round(gain - (offsets[p] - median), 1)
            if markdown:
                preset = os.path.splitext(os.path.basename(entry.get("preset", "")))[0]
                print(f"| {p} | {entry.get('name', '')} | {preset} | {theirs[p]:.1f} | {ours[p]:.1f} | {offsets[p] - median:+.1f} | {gain:+.1f} |"
                      f" {their_attacks[p]:.2f} / {our_attacks[p]:.2f} |")
            else:
                print(f"{p:3d} {entry.get('name', '')[:26]:26s} {theirs[p]:7.1f} {ours[p]:7.1f} {offsets[p] - median:+7.1f} {gain:5.1f} {suggestions[p]:6.1f}"
                      f"     {their_attacks[p]:.2f} / {our_attacks[p]:.2f}")
        within = sum(abs(offsets[p] - median) <= 3 for p in range(128))
        print(f"median offset (ours − FluidR3) {median:+.1f} dB; {within} of 128 programs within 3 dB of it")
        if write:
            text = open(INSTRUMENT).read()
            for p, gain in suggestions.items():
                text = re.sub(rf'(\n    "{p}": {{"name": "[^"]*", "preset": "[^"]*", "gain": )-?[0-9.]+', rf"\g<1>{gain:g}", text)
            open(INSTRUMENT, "w").write(text)
    midi = os.path.join(work, "drums.mid")
    drum_song(midi)
    windows = drum_windows()
    ours = measure(gmtools.render_audiograph, midi, os.path.join(work, "ours-drums.wav"), windows)
    theirs = measure(gmtools.render_fluidsynth, midi, os.path.join(work, "fs-drums.wav"), windows)
    files = kit_files()
    reference = statistics.median(offsets.values()) if offsets else None
    by_file = {}
    if markdown:
        print("\n| kit | key | piece | FluidR3_GM dBFS | ours dBFS | offset dB |")
        print("| ---: | ---: | --- | ---: | ---: | ---: |")
    else:
        print("kit key piece               FluidR3  ours   offset")
    i = 0
    for kit in KITS:
        for key in DRUM_KEYS:
            piece = files.get((kit, key), "-")
            offset = ours[i] - theirs[i]
            if markdown:
                print(f"| {kit} | {key} | {piece} | {theirs[i]:.1f} | {ours[i]:.1f} | {offset - (reference or 0):+.1f} |")
            else:
                print(f"{kit:3d} {key:3d} {piece:20s} {theirs[i]:7.1f} {ours[i]:7.1f} {offset:+6.1f}")
            if piece != "-" and theirs[i] > -70:
                by_file.setdefault(piece, []).append((kit, offset))
            i += 1
    anchor = reference if reference is not None else statistics.median([o for v in by_file.values() for _, o in v])
    print(f"drum offsets against {'the melodic median' if reference is not None else 'their own median'} {anchor:+.1f} dB:")
    current = dict(re.findall(r'"([a-z0-9-]+)": (-?[0-9.]+)', open(DRUM_LEVELS).read()))
    levels = {}
    for piece in sorted(by_file):
        # A standard-kit piece is set by the standard kit's keys (what most songs play; another
        # kit's FluidR3 piece on that key may be a different sound); a kit's own piece by its kit.
        standard = [o for kit, o in by_file[piece] if kit == 0]
        offset = statistics.median(standard or [o for _, o in by_file[piece]]) - anchor
        levels[piece] = round(float(current.get(piece, 0)) - offset, 1)
        print(f"  {piece:20s} {offset:+6.1f} dB  → level {levels[piece]:+.1f}")
    within = sum(abs(o - anchor) <= 3 for v in by_file.values() for _, o in v)
    print(f"{within} of {sum(len(v) for v in by_file.values())} drum keys within 3 dB")
    if write:
        text = open(DRUM_LEVELS).read()
        body = ",\n".join("        " + ", ".join(f'"{k}": {levels[k]:g}' for k in sorted(levels)[i:i + 5]) for i in range(0, len(levels), 5))
        text = re.sub(r"(static let gains: \[String: Double\] = \[\n).*?(\n    \])", lambda m: m.group(1) + body + "," + m.group(2), text, flags=re.S)
        open(DRUM_LEVELS, "w").write(text)


if __name__ == "__main__":
    main()
