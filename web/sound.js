// The table's sounds, made in the page with Web Audio: nothing is loaded.
//
// A discard clacks, a claim calls, "your turn" chimes, and the last 10 seconds of your
// turn tick. Browsers only let a page make sound after the person has touched it, so the
// audio context is created on the first touch or key press; before that nothing plays.
// The mute choice is remembered (preferences.js).

import { preference, setPreference } from "./preferences.js";

let context = null;
let muted = preference("muted") === "true";

function wakeOnFirstTouch() {
  const wake = () => {
    if (!context && window.AudioContext) context = new window.AudioContext();
    if (context && context.state === "suspended") context.resume();
  };
  for (const kind of ["pointerdown", "keydown", "touchstart"]) window.addEventListener(kind, wake, { passive: true });
}
wakeOnFirstTouch();

/** Whether the table is muted. */
export function isMuted() {
  return muted;
}

/** Mutes or unmutes, and remembers it. */
export function setMuted(value) {
  muted = Boolean(value);
  setPreference("muted", String(muted));
}

function ready() {
  return !muted && context && context.state === "running";
}

// One short note: a tone of `frequency` Hz rising to full `volume` and dying away.
function note(frequency, start, length, volume, type = "sine") {
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.type = type;
  oscillator.frequency.setValueAtTime(frequency, start);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(volume, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  oscillator.connect(gain).connect(context.destination);
  oscillator.start(start);
  oscillator.stop(start + length + 0.02);
}

// A tile laid on the table: a short burst of filtered noise, like ivory on felt.
function clack(start) {
  const length = 0.06;
  const buffer = context.createBuffer(1, Math.floor(context.sampleRate * length), context.sampleRate);
  const samples = buffer.getChannelData(0);
  for (let index = 0; index < samples.length; index += 1) samples[index] = (Math.random() * 2 - 1) * (1 - index / samples.length) ** 3;
  const source = context.createBufferSource();
  const filter = context.createBiquadFilter();
  const gain = context.createGain();
  source.buffer = buffer;
  filter.type = "bandpass";
  filter.frequency.value = 2400;
  filter.Q.value = 1.2;
  gain.gain.value = 0.5;
  source.connect(filter).connect(gain).connect(context.destination);
  source.start(start);
}

const SOUNDS = {
  discard: (now) => clack(now),
  claim: (now) => {
    note(660, now, 0.16, 0.25, "triangle");
    note(880, now + 0.12, 0.22, 0.25, "triangle");
  },
  turn: (now) => {
    note(784, now, 0.25, 0.18);
    note(1175, now + 0.1, 0.35, 0.14);
  },
  tick: (now) => note(1320, now, 0.05, 0.12, "square"),
};

/** Plays one of "discard", "claim", "turn", "tick" (when sound is on and allowed). */
export function play(name) {
  if (!ready() || !SOUNDS[name]) return;
  SOUNDS[name](context.currentTime + 0.01);
}
