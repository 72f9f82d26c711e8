"""scripts/gm-balance: per-part balance of real General MIDI songs (Debian's openttd-openmsx and
planetblupi-music-midi) through AudioGraph's default instrument next to FluidSynth 2.3 + FluidR3_GM.

Each part (a channel with notes) is rendered alone — the same song with every other channel's
notes removed, CC7 = 100 (the General MIDI default) on every channel first — and measured as the
RMS of both channels over the song, relative to the RMS of the whole song rendered the same way:
its level in the mix. A part's error is ours minus FluidSynth's. Prints every part, and the share
within 3 dB (and 6 dB). Both sides render at 48 kHz, reverb and chorus off."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gmtools  # noqa: E402

OPENMSX = "/usr/share/games/openttd/baseset/openmsx/"
BLUPI = "/usr/share/planetblupi/music/"
SONGS = [OPENMSX + name for name in (
    "tttheme2.mid", "mighty_giant_run.mid", "city_blues_redfarn.mid", "harp_harmony.mid", "flying_scotsman.mid",
    "chemistry_lab.mid", "wood_whistles.mid")] + [BLUPI + name for name in ("music002.mid", "music005.mid", "music008.mid")]


def part_levels(song, render, work, tag):
    """{channel: level in the mix, dB} and the mix's level."""
    whole = os.path.join(work, f"{tag}-whole.mid")
    channels = gmtools.filter_smf(song, whole)
    render(whole, os.path.join(work, f"{tag}.wav"))
    mix = gmtools.decibels(gmtools.read_audio(os.path.join(work, f"{tag}.wav")))
    levels = {}
    for channel in sorted(channels):
        solo = os.path.join(work, f"{tag}-{channel}.mid")
        gmtools.filter_smf(song, solo, keep_channel=channel)
        wav = os.path.join(work, f"{tag}-{channel}.wav")
        render(solo, wav)
        levels[channel] = gmtools.decibels(gmtools.read_audio(wav)) - mix
    return levels, mix


def main():
    songs = sys.argv[1:] or SONGS
    missing = [s for s in songs if not os.path.exists(s)]
    if missing:
        sys.exit(f"missing {missing[0]} (scripts/install-deps installs openttd-openmsx and planetblupi-music-midi)")
    with tempfile.TemporaryDirectory() as work:
        report(songs, work)


def report(songs, work):
    """Prints every part of `songs`, rendered in `work`, and the share within 3 and 6 dB."""
    errors = []
    for song in songs:
        name = os.path.basename(song)
        theirs, their_mix = part_levels(song, gmtools.render_fluidsynth, work, "fs")
        ours, our_mix = part_levels(song, gmtools.render_audiograph, work, "ours")
        print(f"== {name}: mix {their_mix:.1f} dBFS (FluidSynth), {our_mix:.1f} dBFS (AudioGraph)")
        for channel in sorted(theirs):
            error = ours[channel] - theirs[channel]
            errors.append((name, channel, error))
            mark = "" if abs(error) <= 3 else ("  > 3 dB" if abs(error) <= 6 else "  > 6 dB")
            print(f"  channel {channel + 1:2d}: FluidSynth {theirs[channel]:6.1f} dB, AudioGraph {ours[channel]:6.1f} dB in the mix,"
                  f" error {error:+5.1f} dB{mark}")
    within3 = sum(abs(e) <= 3 for _, _, e in errors)
    within6 = sum(abs(e) <= 6 for _, _, e in errors)
    print(f"{len(errors)} parts in {len(songs)} songs: {within3} within 3 dB ({100 * within3 / len(errors):.0f} %),"
          f" {within6} within 6 dB ({100 * within6 / len(errors):.0f} %)")


if __name__ == "__main__":
    main()
