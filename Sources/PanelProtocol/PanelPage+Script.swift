extension PanelPage {
    /// The page's behaviour: one WebSocket (reconnecting), controls built from `hello`, every
    /// `state` frame shown, changes sent at most every 30 ms per control, errors shown as sent.
    static let script = #"""
"use strict";
const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text != null) e.textContent = text; return e; };
const params = new Map();      // name → descriptor
const controls = new Map();    // name → {update(value)}
const held = new Map();        // name → time until which the page's own value wins over the feed
const pending = new Map();     // name → value waiting for the next send
let ws = null, built = false, lastNotes = [], errorTimer = 0;

function send(message) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(message)); }
function setParam(name, value) { pending.set(name, value); held.set(name, performance.now() + 400); }
setInterval(() => { for (const [name, value] of pending) send({ type: "set", name, value }); pending.clear(); }, 30);

function showError(text) {
  const box = $("error"); box.textContent = text; box.classList.add("shown");
  clearTimeout(errorTimer); errorTimer = setTimeout(() => box.classList.remove("shown"), 5000);
}

function fmt(p, v) {
  if (p.kind === "toggle") return v >= 0.5 ? "on" : "off";
  if (p.kind === "choice") return p.choices[Math.round(v)] || String(v);
  const digits = p.kind === "integer" || Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2;
  return v.toFixed(digits) + (p.unit ? " " + p.unit.replace("semitones", "st") : "");
}

function slider(name, label) {
  const p = params.get(name); if (!p) return el("div");
  const row = el("div", "row"), lab = el("label", null, label || name), out = el("output"), input = el("input");
  input.type = "range"; input.min = p.min; input.max = p.max; input.dataset.param = name;
  input.step = p.kind === "integer" ? 1 : "any";
  input.setAttribute("aria-label", name);
  input.addEventListener("input", () => { out.textContent = fmt(p, +input.value); setParam(name, +input.value); });
  controls.set(name, { update(v) { input.value = v; out.textContent = fmt(p, v); } });
  row.append(lab, input, out); return row;
}

function toggle(name, label, cls) {
  const p = params.get(name); if (!p) return el("span");
  const b = el("button", "toggle" + (cls ? " " + cls : ""), label); b.type = "button"; b.dataset.param = name;
  b.addEventListener("click", () => { const v = b.getAttribute("aria-pressed") === "true" ? 0 : 1; b.setAttribute("aria-pressed", v === 1); setParam(name, v); });
  controls.set(name, { update(v) { b.setAttribute("aria-pressed", v >= 0.5); } });
  return b;
}

function choice(name, box) {
  const p = params.get(name); if (!p) return;
  let shown = -1;
  const buttons = p.choices.map((c, i) => {
    const b = el("button", null, c); b.type = "button"; b.dataset.param = name; b.dataset.value = i;
    b.addEventListener("click", () => { p.current = i; press(i); setParam(name, i); });
    box.append(b); return b;
  });
  const press = (i) => { buttons.forEach((o, j) => o.setAttribute("aria-pressed", j === i)); if (shown !== i) { shown = i; showEffect(); } };
  controls.set(name, { update(v) { press(Math.round(v)); } });
}

function meter(box) {
  const m = el("div", "meter"), cover = el("div", "cover"), tick = el("div", "tick"); m.append(cover, tick); box.append(m);
  const pos = (db) => Math.max(0, Math.min(100, (db + 60) / 60 * 100));
  return (rms, peak) => { cover.style.width = (100 - pos(rms)) + "%"; tick.style.left = "calc(" + pos(peak) + "% - 2px)"; };
}

const effectParams = { ringmod: ["mic.ringmod.frequency"], delay: ["mic.delay.time", "mic.delay.feedback", "mic.delay.mix"],
  average: ["mic.average.points"], lowpass: ["mic.lowpass.cutoff"], pitchshift: ["mic.pitchshift.semitones"] };
function showEffect() {
  const p = params.get("mic.effect"), box = $("effect-controls"); if (!p) return;
  const name = p.choices[Math.round(p.current || 0)];
  for (const row of box.children) row.hidden = !(row.dataset.effect === "all" || row.dataset.effect === name);
}

let meters = {};
function build(list) {
  params.clear(); controls.clear();
  for (const p of list) params.set(p.name, p);
  for (const id of ["synth-controls", "loops", "effects", "effect-controls", "buses", "send-controls", "master-controls", "leds", "parts", "input-meter", "output-meter"]) $(id).replaceChildren();
  const sc = $("synth-controls");
  sc.append(slider("synth.attack", "attack"), slider("synth.release", "release"));
  const follow = el("div", "row"); follow.append(toggle("synth.follow", "follow mic pitch")); sc.append(follow, slider("synth.follow.interval", "interval"));
  for (const n of list.map((p) => p.name).filter((n) => /^loop\.\w+\.play$/.test(n))) $("loops").append(toggle(n, n.split(".")[1]));
  for (const b of $("loops").children) b.classList.replace("toggle", "loop");
  choice("mic.effect", $("effects"));
  const ec = $("effect-controls"), mix = slider("mic.mix", "wet/dry"); mix.dataset.effect = "all"; ec.append(mix);
  for (const [effect, names] of Object.entries(effectParams)) for (const n of names) { const r = slider(n, n.split(".").pop()); r.dataset.effect = effect; ec.append(r); }
  meters.input = [meter($("input-meter")), meter($("input-meter"))];
  meters.output = [meter($("output-meter")), meter($("output-meter"))];
  meters.buses = {};
  for (const n of list.map((p) => p.name).filter((n) => /^bus\.\w+\.gain$/.test(n))) {
    const bus = n.split(".")[1], box = el("div", "bus"), title = el("div", "title", bus), m = el("div", "meters");
    title.append(m, toggle(`bus.${bus}.mute`, "mute", "mute")); meters.buses[bus] = meter(m);
    box.append(title, slider(n, "level"), slider(`bus.${bus}.pan`, "pan")); $("buses").append(box);
  }
  const fx = $("send-controls"), fxRow = el("div", "row"); fxRow.append(toggle("fx.enabled", "sends on")); fx.append(fxRow);
  fx.append(slider("fx.reverb.level", "reverb"), slider("fx.reverb.decay", "decay"), slider("fx.chorus.level", "chorus"), slider("fx.chorus.rate", "rate"));
  const mc = $("master-controls");
  for (const f of ["lowpass", "highpass"]) {
    const r = el("div", "row"); r.append(toggle(`master.${f}.enabled`, f === "lowpass" ? "LP" : "HP")); mc.append(r);
    mc.append(slider(`master.${f}.cutoff`, "cutoff"), slider(`master.${f}.resonance`, "resonance"));
  }
  mc.append(slider("master.gain", "gain"));
  meters.gr = $("gr").querySelector(".cover");
  for (let c = 1; c <= 16; c++) $("leds").append(el("div", "led", c));
  meters.parts = [];
  for (let c = 1; c <= 16; c++) {
    const row = el("div", "part quiet"), name = el("span", "name", "–"), v = el("span", "v", ""), m = el("div");
    row.append(el("span", "ch", c), name, v, m); $("parts").append(row);
    meters.parts.push({ row, name, v, level: meter(m) });
  }
  built = true; showEffect();
}

function render(s) {
  if (!built) return;
  const now = performance.now();
  for (const [name, v] of Object.entries(s.values)) {
    const p = params.get(name); if (p) p.current = v;
    const c = controls.get(name); if (c && !((held.get(name) || 0) > now)) c.update(v);
  }
  $("sources").textContent = s.midiSources.length ? s.midiSources.join(", ") : "no sources connected";
  const leds = $("leds").children;
  s.midiNotes.forEach((n, i) => { if (lastNotes.length && n !== lastNotes[i]) { leds[i].classList.add("on"); leds[i].dataset.until = now + 150; }
    else if (+leds[i].dataset.until < now) leds[i].classList.remove("on"); });
  lastNotes = s.midiNotes;
  s.parts.forEach((p, i) => { const m = meters.parts[i]; m.name.textContent = p.program; m.v.textContent = p.voices ? p.voices + "v" : "";
    m.row.classList.toggle("quiet", p.voices === 0); m.level(p.level, p.level); });
  const inM = s.inputPeak || [-160, -160], inR = s.inputRMS || [-160, -160];
  meters.input.forEach((m, i) => m(inR[i], inM[i]));
  meters.output.forEach((m, i) => m(s.outputRMS[i], s.outputPeak[i]));
  for (const b of s.buses) if (meters.buses[b.name]) meters.buses[b.name](b.rms, b.peak);
  meters.gr.style.width = (100 - Math.min(100, s.limiterReduction / 12 * 100)) + "%";
  $("gr-db").textContent = s.limiterReduction.toFixed(1) + " dB";
  if (s.pitchHz) { $("pitch").firstChild.textContent = s.pitchNote + " " + (s.pitchCents >= 0 ? "+" : "") + s.pitchCents.toFixed(0) + "¢";
    $("pitch-hz").textContent = s.pitchHz.toFixed(1) + " Hz"; }
  else { $("pitch").firstChild.textContent = "–"; $("pitch-hz").textContent = s.inputPeak ? "no pitch" : "no input"; }
  const h = s.health, items = [["xruns", h.xruns], ["DSP load", h.dspLoad.toFixed(1) + " % (max " + h.worstDspLoad.toFixed(1) + " %)"],
    ["voices", h.voices], ["start-up", h.startupMilliseconds != null ? h.startupMilliseconds.toFixed(0) + " ms" : "–"], ["playback", h.playback],
    ["capture", h.capture || "none"], ["audio server", h.audioServer || "none (ALSA)"], ["render thread", h.realtime], ["sampler", h.sampler]];
  const dl = $("health-list");
  if (dl.children.length !== items.length * 2) { dl.replaceChildren(); for (const [k] of items) { dl.append(el("dt", null, k), el("dd")); } }
  items.forEach(([, v], i) => { const dd = dl.children[2 * i + 1]; if (dd.textContent !== String(v)) dd.textContent = v; });
  dl.children[1].className = h.xruns > 0 ? "big" : "big"; dl.children[1].style.color = h.xruns > 0 ? "var(--hot)" : "var(--ok)";
}

function keyboard() {
  const box = $("keys"), names = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B", "C"];
  let white = 0;
  names.forEach((n, i) => {
    const note = 60 + i, black = n.includes("#"), b = el("button", black ? "black" : "white", black ? "" : n + (i === 12 ? "5" : "4"));
    b.type = "button"; b.dataset.note = note; b.setAttribute("aria-label", "note " + n + (i === 12 ? "5" : "4"));
    if (black) b.style.left = "calc(" + (white / 8 * 100) + "% - 4.5%)"; else white++;
    const on = (e) => { e.preventDefault(); if (b.classList.contains("down")) return; b.setPointerCapture && e.pointerId != null && b.setPointerCapture(e.pointerId);
      b.classList.add("down"); send({ type: "note", note, velocity: 100 }); };
    const off = () => { if (!b.classList.contains("down")) return; b.classList.remove("down"); send({ type: "note", note, velocity: 0 }); };
    b.addEventListener("pointerdown", on); b.addEventListener("pointerup", off); b.addEventListener("pointercancel", off); b.addEventListener("lostpointercapture", off);
    box.append(b);
  });
}

function connect() {
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws" + location.search);
  ws.onopen = () => { $("link").textContent = "live · " + location.host; $("link").classList.add("up"); };
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.type === "hello") build(m.parameters);
    else if (m.type === "state") render(m.state);
    else if (m.type === "error") showError(m.message);
  };
  ws.onclose = (e) => {
    $("link").classList.remove("up");
    $("link").textContent = "disconnected" + (e.reason ? ": " + e.reason : e.code === 1009 ? ": message too big" : "") + " · retrying";
    if (e.code === 1009) showError("the server closed the connection: message too big");
    setTimeout(connect, 1000);
  };
}

$("panic").addEventListener("click", () => { send({ type: "panic" }); document.querySelectorAll(".keys .down").forEach((k) => k.classList.remove("down")); });
keyboard();
connect();

"""#
}
