/** `npm run dev`: a saved contract change deployed on the local chains and served by the API within this many seconds. */
export const DEV_TARGET_SECONDS = 45;

/** The `npm run dev` figure, which tools/loop/measure-dev.ts measures and writes to the same data file. */
export function devRow(seconds: unknown): string {
  const figure = typeof seconds === "number" ? String(seconds) : "—";
  const met = typeof seconds === "number" ? (seconds <= DEV_TARGET_SECONDS ? "yes" : "no") : "—";
  return `| saved contract change → deployed on the local chains and served by the API | \`npm run dev\` | ${figure} | ≤ ${DEV_TARGET_SECONDS} s | ${met} | measured by \`npm --workspace tools run dev:measure\` |`;
}

/** Puts the `npm run dev` row of docs/development.md's loop figures in step with `seconds`. */
export function withDevRow(doc: string, seconds: number): string {
  return doc.replace(/^\| saved contract change → deployed on the local chains and served by the API \|.*$/m, devRow(seconds));
}
