import * as fs from "node:fs";
import * as path from "node:path";

import { BENCH_BLOCK_END, BENCH_BLOCK_START } from "../docs/bench-block";

/**
 * The docs say what is true now and why; the history lives in the bench's data file (docs/data/), CHANGELOG.md and the
 * commit log. So docs/performance.md stays short, no doc records a dated run, and no comment or doc points at a
 * "round N" of the project's history. "Round" is also the product's word (a raffle's round 1, `roundId`), so the
 * history patterns below only match the forms the history took: a pointer into a doc that names a round, "round N of
 * the backfill", "sign path round N", a "Round N" heading, a perf branch's name.
 */
const ROOT = path.resolve(__dirname, "../..");
const PERFORMANCE = "docs/performance.md";
const PERFORMANCE_MAX_LINES = 250;
/** Where history may carry dates: the changelog; the data files are JSON, which the date rule does not read. */
const DATED_HISTORY = new Set(["CHANGELOG.md"]);
const SKIPPED_DIRS = new Set([
  "node_modules",
  "dist",
  "artifacts",
  "cache",
  "typechain",
  "generated",
  "coverage",
  "reports",
  "tmp",
  ".nx",
  ".build",
  "forge-out",
  "forge-cache",
]);
const SCANNED = /\.(ts|tsx|js|cjs|mjs|sol|md|sh|yml|yaml)$/;
/** This file names the history's forms as examples of what must fail. */
const SELF = path.relative(ROOT, __filename);

/** Project history written as "round N" (review or tuning rounds), never the product's raffle rounds. */
const HISTORY_PATTERNS: RegExp[] = [
  // a parenthesised pointer into a doc that names a round: (docs/performance.md, "Indexer backfill", round 5)
  /\([^()]*\.md\b[^()]*\bround \d+[^()]*\)/i,
  // a doc's section cited with a round after it: docs/performance.md, "Reads and data growth", Round 3
  /\.md,\s*(?:(?:\*|\/\/)\s*)?"[^"\n]+",\s*(?:(?:\*|\/\/)\s*)?round \d+/i,
  // round 10 of the backfill, round 2 of the sign path, round 3 of the review
  /\bround \d+ of (?:the |this )?(?:sign path|backfill|reads|review|bench|performance|issue)\b/i,
  // sign path round 7, backfill round 7, review round 3
  /\b(?:sign path|backfill|review|perf|performance)(?:'s)? round \d+\b/i,
  // a Markdown heading that is a round of work: "### Round 5: named statements"
  /^#{1,6} Round \d+\b/im,
  // the branches the rounds ran on: perf-backfill3, perf-sign4
  /\bperf-(?:sign|backfill|reads|chains|memory)\d*\b/i,
];

/** A dated run: a calendar date or a clock time in UTC. ISO timestamps (2026-11-23T16:00:00Z) are example payloads. */
const DATED_RUN_PATTERNS: RegExp[] = [/\b20\d\d-[01]\d-[0-3]\d\b(?!T\d)/, /\b[0-2]\d:[0-5]\d(?:[–-][0-2]\d:[0-5]\d)? UTC\b/];

const firstMatch = (text: string, patterns: RegExp[]): string | undefined =>
  patterns.map((pattern) => text.match(pattern)?.[0]).find((match) => match !== undefined);

function scannedFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : scannedFiles(file);
    return SCANNED.test(entry.name) ? [file] : [];
  });
}

const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), "utf8");

/** A page without its generated bench block: that block renders the data file, whose run has its date. */
function withoutGeneratedBlock(text: string): string {
  const start = text.indexOf(BENCH_BLOCK_START);
  const end = text.indexOf(BENCH_BLOCK_END);
  return start < 0 || end < start ? text : text.slice(0, start) + text.slice(end + BENCH_BLOCK_END.length);
}

/** GitHub's anchors of a Markdown page's headings, and the headings themselves (the names comments cite). */
function headingsOf(file: string): { names: Set<string>; anchors: Set<string> } {
  const names = [...read(file).matchAll(/^#{1,6} (.+)$/gm)].map((match) => match[1].trim());
  const anchors = names.map((name) =>
    name
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-"),
  );
  return { names: new Set(names), anchors: new Set(anchors) };
}

describe("the history patterns", () => {
  it.each([
    ["(docs/performance.md, sign path round 7)"],
    ['(docs/performance.md, "Indexer backfill",\n * round 4)'],
    ['them 9-23 % less. See docs/performance.md, "Reads and data growth", Round 3.'],
    ["as round 10 of the backfill describes"],
    ["the raw rows' natural key of backfill round 7"],
    ["### Round 5: named statements"],
    ["commits on branch `perf-backfill3`"],
  ])("finds %j", (text) => {
    expect(firstMatch(text, HISTORY_PATTERNS)).toBeDefined();
  });

  it.each([
    ["await restartRound(world, raffle); // round 1 closes empty; round 2 plays by the rules"],
    ['- Example `detail`: "No round 7 for this merchant."'],
    ["// Round 1: deployed, started, two purchases, drawn, claimed; the raffle paused and unpaused."],
    ["`Ticket 2 of round 1 of raffle ${address}.`"],
    ["Each run reads `getCurrentRoundInfo`; round 0 → nothing (see docs/guides/merchant.md)"],
    ['["Round 2", "Round 1"]'],
    ["a ticket of round 2 refunded as round 1's (see the round's rules)"],
  ])("lets the product's own rounds pass: %j", (text) => {
    expect(firstMatch(text, HISTORY_PATTERNS)).toBeUndefined();
  });

  it("finds a dated run and lets an example payload's timestamp pass", () => {
    expect(firstMatch("the fast run (2026-11-28, morning)", DATED_RUN_PATTERNS)).toBe("2026-11-28");
    expect(firstMatch("**The run of 13:15–13:38 UTC** on main", DATED_RUN_PATTERNS)).toBe("13:15–13:38 UTC");
    expect(firstMatch('"createdAt": "2026-11-23T16:00:00.000Z"', DATED_RUN_PATTERNS)).toBeUndefined();
    expect(firstMatch("VRF draws per merchant per UTC day", DATED_RUN_PATTERNS)).toBeUndefined();
  });
});

describe("the repository as a reference, not a diary", () => {
  const files = ["README.md", "CHANGELOG.md", ...["apps", "libs", "tools", "contracts", "deploy", "docs"].flatMap(scannedFiles)].filter(
    (file) => file !== SELF,
  );
  const markdown = files.filter((file) => file.endsWith(".md"));

  it(`keeps ${PERFORMANCE} to at most ${PERFORMANCE_MAX_LINES} lines`, () => {
    const lines = read(PERFORMANCE).trimEnd().split("\n").length;
    expect(lines).toBeGreaterThan(50);
    expect(lines).toBeLessThanOrEqual(PERFORMANCE_MAX_LINES);
  });

  it("has no comment or doc that points at a round of the project's history", () => {
    expect(files.length).toBeGreaterThan(300);
    const found = files.map((file) => ({ file, history: firstMatch(read(file), HISTORY_PATTERNS) })).filter((hit) => hit.history !== undefined);
    expect(found).toEqual([]);
  });

  it("records no dated run in the docs (the data file and the changelog hold the history)", () => {
    expect(markdown).toContain(PERFORMANCE);
    const found = markdown
      .filter((file) => !DATED_HISTORY.has(file))
      .map((file) => ({ file, dated: firstMatch(withoutGeneratedBlock(read(file)), DATED_RUN_PATTERNS) }))
      .filter((hit) => hit.dated !== undefined);
    expect(found).toEqual([]);
  });

  it(`cites only sections that ${PERFORMANCE} has`, () => {
    const { names, anchors } = headingsOf(PERFORMANCE);
    const citations = files.flatMap((file) => {
      const text = read(file);
      // A section's name may be wrapped onto the comment's next line.
      const sections = [...text.matchAll(/performance\.md,\s*(?:\*\s*|\/\/\s*)?"([^"]+)"/g)].map((match) =>
        match[1].replace(/\s*\n\s*(?:\*|\/\/)?\s*/g, " "),
      );
      const links = [...text.matchAll(/performance\.md#([\w-]+)/g)].map((match) => `#${match[1]}`);
      return [...sections, ...links].map((cited) => ({ file, cited }));
    });
    expect(citations.length).toBeGreaterThan(5);
    const missing = citations.filter(({ cited }) => (cited.startsWith("#") ? !anchors.has(cited.slice(1)) : !names.has(cited)));
    expect(missing).toEqual([]);
  });
});
