// The player's choices this browser remembers: language, tile set, sound.
//
// Kept in localStorage under "mahjong-hall:pref:<name>". A browser that refuses storage
// (private modes) still plays; the choice then lasts only for the page.

const PREFIX = "mahjong-hall:pref:";
const inMemory = new Map();

/** The remembered value of `name`, or null. */
export function preference(name) {
  try {
    const value = window.localStorage.getItem(PREFIX + name);
    if (value !== null) return value;
  } catch (refused) {
    // Storage refused: fall back to this page's memory.
  }
  return inMemory.has(name) ? inMemory.get(name) : null;
}

/** Remembers `value` for `name`. */
export function setPreference(name, value) {
  inMemory.set(name, value);
  try {
    window.localStorage.setItem(PREFIX + name, value);
  } catch (refused) {
    // Kept in memory only.
  }
}
