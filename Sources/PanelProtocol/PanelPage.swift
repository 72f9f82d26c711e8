/// The panel's one page: markup and style here, the script in `PanelPage+Script.swift`; all
/// inline, nothing fetched from elsewhere, no build step. The controls are built from the
/// parameters the server sends (`hello`), so a new engine parameter needs no page change.
public enum PanelPage {
    public static let html = head + style + body + "<script>\n" + script + "</script>\n</body>\n</html>\n"

    static let head = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="referrer" content="no-referrer">
<title>AudioGraph</title>

"""#

    static let style = #"""
<style>
:root { --bg: #14161a; --card: #1e2127; --line: #30343c; --text: #e8eaed; --dim: #9aa0a8; --accent: #4fb3ff;
        --ok: #3ecf6e; --warn: #f2c94c; --hot: #ff5a4f; --key: #f4f4f0; --keydark: #23262c; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html, body { margin: 0; background: var(--bg); color: var(--text); font: 15px/1.35 "DejaVu Sans", system-ui, sans-serif; }
header { position: sticky; top: 0; z-index: 5; display: flex; align-items: center; gap: 12px; padding: 8px 12px;
         background: #101215ee; border-bottom: 1px solid var(--line); }
header h1 { font-size: 18px; margin: 0; font-weight: 600; letter-spacing: .02em; }
#link { font-size: 13px; color: var(--dim); flex: 1; }
#link::before { content: "●"; margin-right: 6px; color: var(--hot); }
#link.up::before { color: var(--ok); }
#panic { min-height: 48px; min-width: 96px; border: 0; border-radius: 10px; background: var(--hot); color: #fff;
         font-weight: 700; font-size: 16px; letter-spacing: .06em; }
#panic:active { filter: brightness(.8); }
#error { display: none; margin: 8px 12px 0; padding: 10px 12px; border-radius: 8px; background: #4a1d1b; color: #ffd9d6;
         border: 1px solid var(--hot); font-size: 14px; }
#error.shown { display: block; }
main { display: grid; gap: 10px; padding: 10px; grid-template-columns: 1fr; }
@media (min-width: 700px) { main { grid-template-columns: repeat(2, 1fr); } }
@media (min-width: 1100px) { main { grid-template-columns: repeat(4, 1fr); } .wide { grid-column: span 2; } }
section { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 10px 12px; min-width: 0; }
section h2 { margin: 0 0 8px; font-size: 12px; text-transform: uppercase; letter-spacing: .12em; color: var(--dim); font-weight: 600; }
section h2 .step { color: var(--accent); margin-right: 6px; }
.row { display: flex; align-items: center; gap: 8px; min-height: 44px; }
.row label { flex: 0 0 96px; font-size: 13px; color: var(--dim); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.row output { flex: 0 0 74px; text-align: right; font-variant-numeric: tabular-nums; font-size: 13px; }
input[type=range] { flex: 1; min-width: 0; height: 44px; margin: 0; background: transparent; -webkit-appearance: none; appearance: none; }
input[type=range]::-webkit-slider-runnable-track { height: 6px; border-radius: 3px; background: #3a3f48; }
input[type=range]::-webkit-slider-thumb { -webkit-appearance: none; width: 26px; height: 26px; margin-top: -10px; border-radius: 50%;
         background: var(--accent); border: 3px solid #0d2a40; }
button { font: inherit; color: var(--text); }
.toggle, .choice button, .loop { min-height: 44px; min-width: 44px; padding: 0 12px; border-radius: 8px; border: 1px solid var(--line);
         background: #2a2e35; }
.toggle[aria-pressed=true], .choice button[aria-pressed=true], .loop[aria-pressed=true] { background: var(--accent); color: #05121d;
         border-color: var(--accent); font-weight: 600; }
.toggle.mute[aria-pressed=true] { background: var(--warn); border-color: var(--warn); }
.choice { display: flex; flex-wrap: wrap; gap: 6px; margin: 4px 0 8px; }
.meter { position: relative; height: 12px; border-radius: 3px; overflow: hidden; flex: 1; min-width: 40px;
         background: linear-gradient(90deg, #1f7a45 0%, #3ecf6e 70%, #f2c94c 85%, #ff5a4f 100%); }
.meter .cover { position: absolute; top: 0; right: 0; bottom: 0; background: #2b2f36; }
.meter .tick { position: absolute; top: 0; bottom: 0; width: 2px; background: #fff; }
.meters { display: grid; gap: 3px; flex: 1; }
.small { font-size: 12px; color: var(--dim); }
.leds { display: grid; grid-template-columns: repeat(8, 1fr); gap: 5px; }
.led { height: 26px; border-radius: 5px; background: #2a2e35; color: var(--dim); font-size: 12px; display: grid; place-items: center; }
.led.on { background: var(--ok); color: #04140a; }
.parts { display: grid; gap: 2px; font-size: 13px; }
.part { display: grid; grid-template-columns: 22px 1fr 30px 56px; gap: 6px; align-items: center; min-height: 22px; }
.part .name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.part.quiet .name { color: var(--dim); }
.part .ch, .part .v { color: var(--dim); text-align: right; font-variant-numeric: tabular-nums; }
.part .meter { height: 8px; }
.bus { border-top: 1px solid var(--line); padding-top: 6px; margin-top: 6px; }
.bus:first-of-type { border-top: 0; margin-top: 0; padding-top: 0; }
.bus .title { display: flex; align-items: center; gap: 8px; font-weight: 600; text-transform: capitalize; }
.pitch { font-size: 34px; font-weight: 700; font-variant-numeric: tabular-nums; }
.pitch small { font-size: 15px; color: var(--dim); font-weight: 400; margin-left: 8px; }
dl { display: grid; grid-template-columns: auto 1fr; gap: 4px 10px; margin: 0; font-size: 13px; }
dt { color: var(--dim); } dd { margin: 0; overflow-wrap: anywhere; }
.big { font-size: 22px; font-weight: 600; font-variant-numeric: tabular-nums; }
.keys { position: relative; height: 150px; display: flex; user-select: none; -webkit-user-select: none; touch-action: none; }
.keys button { border: 1px solid #888; border-radius: 0 0 8px 8px; padding: 0; }
.keys .white { flex: 1; height: 100%; background: var(--key); color: #444; display: flex; align-items: flex-end; justify-content: center;
               padding-bottom: 6px; font-size: 12px; }
.keys .black { position: absolute; top: 0; height: 60%; width: 9%; background: var(--keydark); z-index: 2; border-color: #000; }
.keys button.down { background: var(--accent); }
.kbd { grid-column: 1 / -1; }
</style>
</head>

"""#

    static let body = #"""
<body>
<header>
<h1>AudioGraph</h1><span id="link">connecting…</span>
<button id="panic" type="button" aria-label="panic: silence everything">PANIC</button>
</header>
<div id="error" role="alert"></div>
<main>
<section id="midi"><h2><span class="step">1</span>MIDI in</h2>
 <div class="small" id="sources">no sources</div><div class="leds" id="leds" style="margin-top:8px"></div></section>
<section id="parts-card"><h2><span class="step">2</span>Parts</h2><div class="parts" id="parts"></div></section>
<section id="synth"><h2><span class="step">3</span>Synth &amp; loops</h2><div id="synth-controls"></div>
 <div class="choice" id="loops"></div></section>
<section id="mic"><h2><span class="step">4</span>Mic / line in</h2>
 <div class="pitch" id="pitch">–<small id="pitch-hz"></small></div>
 <div class="row"><label>input</label><div class="meters" id="input-meter"></div></div>
 <div class="choice" id="effects" aria-label="mic effect"></div><div id="effect-controls"></div></section>
<section id="mixer" class="wide"><h2><span class="step">5</span>Mixer</h2><div id="buses"></div></section>
<section id="sends"><h2><span class="step">6</span>Send effects</h2><div id="send-controls"></div></section>
<section id="master"><h2><span class="step">7</span>Master</h2><div id="master-controls"></div>
 <div class="row"><label>limiter GR</label><div class="meter" id="gr"><div class="cover"></div></div><output id="gr-db"></output></div>
 <div class="row"><label>output</label><div class="meters" id="output-meter"></div></div></section>
<section id="health"><h2><span class="step">8</span>Health</h2><dl id="health-list"></dl></section>
<section class="kbd"><h2>Test keyboard · channel 1</h2><div class="keys" id="keys"></div></section>
</main>

"""#
}
