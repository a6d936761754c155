// The words of every page, from one catalogue per language (web/i18n/<language>.json).
//
// The page's language comes from what the player chose before (remembered in this
// browser), else from the browser's own languages, else English. Only the chosen
// catalogue is loaded, before any page module draws anything (top-level await), so `t`
// is synchronous. Pages switch language by remembering the choice and reloading: every
// text, number and date is then drawn afresh in the new language.

import { preference, setPreference } from "./preferences.js";

/** The languages offered, each with its own name and the locale used for numbers and dates. */
export const LANGUAGES = {
  en: { name: "English", locale: "en-GB" },
  ms: { name: "Bahasa Melayu", locale: "ms-MY" },
  "zh-Hant": { name: "繁體中文", locale: "zh-HK" },
  "zh-Hans": { name: "简体中文", locale: "zh-Hans-MY" },
};

/** The best offered language for a list of browser language tags ("zh-HK", "ms", ...). */
export function languageForBrowser(tags) {
  for (const raw of tags || []) {
    const tag = String(raw).toLowerCase();
    if (tag.startsWith("ms")) return "ms";
    // Hong Kong, Macau and Taiwan write Traditional characters; everyone else Simplified.
    if (/^zh-(hant|hk|mo|tw)/.test(tag)) return "zh-Hant";
    if (tag.startsWith("zh")) return "zh-Hans";
    if (tag.startsWith("en")) return "en";
  }
  return "en";
}

function chosenLanguage() {
  const remembered = preference("language");
  if (remembered && LANGUAGES[remembered]) return remembered;
  return languageForBrowser(navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]);
}

export const LANGUAGE = chosenLanguage();
export const LOCALE = LANGUAGES[LANGUAGE].locale;

async function loadCatalogue(language) {
  try {
    // Relative to this module, so the catalogue loads under the same client version.
    const response = await fetch(new URL(`./i18n/${language}.json`, import.meta.url));
    if (response.ok) return await response.json();
  } catch (unreachable) {
    // Falls through to the key itself: a page with ids is still better than no page.
  }
  return {};
}

const CATALOGUE = await loadCatalogue(LANGUAGE);
const numbers = new Intl.NumberFormat(LOCALE);

document.documentElement.lang = LOCALE;

/** Whether the catalogue has `key` (for words the server may send that we do not know). */
export function has(key) {
  return Object.prototype.hasOwnProperty.call(CATALOGUE, key);
}

/** The text of `key` with `{name}` placeholders filled; numbers are written the locale's way. */
export function t(key, params = {}) {
  const text = has(key) ? CATALOGUE[key] : key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === "number" ? numbers.format(value) : String(value);
  });
}

/** A number written the locale's way. */
export function formatNumber(value) {
  return numbers.format(value);
}

/** A signed score: "+12", "−4", "0". */
export function formatSigned(value) {
  return value > 0 ? `+${numbers.format(value)}` : numbers.format(value);
}

const dates = new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium" });
const datesAndTimes = new Intl.DateTimeFormat(LOCALE, { dateStyle: "short", timeStyle: "short" });

function asDate(value) {
  if (value === null || value === undefined || value === "") return null;
  const moment = value instanceof Date ? value : new Date(value);
  return Number.isNaN(moment.getTime()) ? null : moment;
}

/** A day in the page's language ("3 Dec 2026", "2026年12月3日"); "–" for none. */
export function formatDate(value) {
  const moment = asDate(value);
  return moment ? dates.format(moment) : "–";
}

/** A date and time in the page's language, short style ("03/12/2026, 20:15"); "–" for none. */
export function formatDateTime(value) {
  const moment = asDate(value);
  return moment ? datesAndTimes.format(moment) : "–";
}

/**
 * Words the page's static markup: `data-i18n` sets the text, `data-i18n-<attribute>` an
 * attribute (placeholder, title, aria-label), from the catalogue.
 */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const attribute of ["placeholder", "title", "aria-label"]) {
    const dataName = `i18n${attribute.replace(/(^|-)(\w)/g, (_, __, letter) => letter.toUpperCase())}`;
    for (const node of root.querySelectorAll(`[data-i18n-${attribute}]`)) node.setAttribute(attribute, t(node.dataset[dataName]));
  }
}

/** A language menu: choosing one remembers it and redraws the page in it. */
export function languageMenu() {
  const select = document.createElement("select");
  select.className = "language-menu";
  select.dataset.testid = "language";
  select.setAttribute("aria-label", t("language.choose"));
  for (const [code, language] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = language.locale;
    option.textContent = language.name;
    option.selected = code === LANGUAGE;
    select.append(option);
  }
  select.addEventListener("change", () => {
    setPreference("language", select.value);
    window.location.reload();
  });
  return select;
}

/** Puts the language menu into every `[data-language-menu]` slot of the page. */
export function installLanguageMenu() {
  for (const slot of document.querySelectorAll("[data-language-menu]")) slot.replaceChildren(languageMenu());
}
