// Short card and trick sounds made with WebAudio (no sound files to load).
// Silent unless the person switched sound on in the settings.

import { settings } from "./settings.js";

let context = null;

function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  return context;
}

/** A burst of filtered noise: the snap of a card landing on the felt. */
function snap(ctx, at, pitch) {
  const length = Math.floor(ctx.sampleRate * 0.06);
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = pitch;
  const gain = ctx.createGain();
  gain.gain.value = 0.5;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(at);
}

/** ``card`` when a card is played, ``trick`` when a trick is gathered. */
export function play(kind) {
  if (!settings().sound) return;
  const ctx = audio();
  if (!ctx) return;
  if (ctx.state === "suspended") ctx.resume();
  const now = ctx.currentTime;
  if (kind === "card") snap(ctx, now, 2400);
  else {
    snap(ctx, now, 1200);
    snap(ctx, now + 0.07, 900);
  }
}
