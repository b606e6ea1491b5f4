/** The locale the pages fall back to when the browser names none that Intl accepts. */
export const DEFAULT_LOCALE = "en-US";

/** `tag` as Intl accepts it, or undefined: "en-US@posix" (Chromium under LANG=C.UTF-8) is "en-US". */
function canonical(tag: string): string | undefined {
  for (const candidate of [tag, tag.split("@")[0].replace(/_/g, "-")]) {
    try {
      const [locale] = Intl.getCanonicalLocales(candidate);
      if (locale) return locale;
    } catch {
      // Not a BCP 47 tag: the next candidate.
    }
  }
  return undefined;
}

/**
 * The first of the browser's languages that Intl accepts, else DEFAULT_LOCALE. Every date and number the pages format
 * goes through it: Intl throws "Invalid language tag" on a tag it refuses, which would blank the page.
 */
export function pageLocale(
  languages: readonly string[] = typeof navigator === "undefined" ? [] : [...(navigator.languages ?? []), navigator.language],
): string {
  for (const tag of languages) {
    const locale = tag ? canonical(tag) : undefined;
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

/** A date and time for people, in the page's locale ("11/29/2026, 5:10:47 AM" unless `options` say otherwise). */
export function formatDateTime(value: string | number | Date, options?: Intl.DateTimeFormatOptions): string {
  return new Date(value).toLocaleString(pageLocale(), options);
}

/**
 * Libraries that pass `navigator.language` to Intl themselves (uPlot does at import) see the page's locale instead of
 * a tag Intl refuses. Runs before any of them is imported (first import of each page's entry).
 */
export function exposeValidNavigatorLanguage(): void {
  if (typeof navigator === "undefined" || canonical(navigator.language) === navigator.language) return;
  const locale = pageLocale();
  Object.defineProperty(navigator, "language", { configurable: true, get: () => locale });
  Object.defineProperty(navigator, "languages", { configurable: true, get: () => [locale] });
}
