import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";

/**
 * contracts/TRUST.md holds every "never" with a test; this keeps its citations true. Each quoted name must be (part
 * of) a test title in the file it names, so renaming or deleting a cited test fails here until TRUST.md follows.
 */
const ROOT = path.resolve(__dirname, "..");
const TRUST = fs.readFileSync(path.join(ROOT, "TRUST.md"), "utf8");

/** The short names TRUST.md uses for test files, and the files themselves. */
function testFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const file of fs.readdirSync(__dirname).filter((name) => name.endsWith(".test.ts"))) {
    const text = fs.readFileSync(path.join(__dirname, file), "utf8");
    files.set(file.replace(/\.ts$/, ""), text);
  }
  files.set("fairness", files.get("Attacks.fairness.test")!);
  files.set("liveness", files.get("Liveness.test")!);
  return files;
}

/** Every `name "title"[, "title"]` citation: a file short name followed by one or more quoted titles. */
function citations(): Array<{ file: string; title: string }> {
  const found: Array<{ file: string; title: string }> = [];
  const text = TRUST.replace(/\s+/g, " ");
  const pattern = /`?([A-Za-z.]+(?:\.test)?|fairness|liveness)`? ((?:"[^"]+"(?:,? )?)+)/g;
  for (const match of text.matchAll(pattern)) {
    for (const quoted of match[2].matchAll(/"([^"]+)"/g)) found.push({ file: match[1], title: quoted[1] });
  }
  return found;
}

describe("TRUST.md", () => {
  it("cites only tests that exist, in the files it names", () => {
    const files = testFiles();
    const cited = citations().filter(({ file }) => files.has(file) || file.endsWith(".test"));
    expect(cited.length).to.be.at.least(40);
    const missing: string[] = [];
    for (const { file, title } of cited) {
      const source = files.get(file);
      // "…" stands for words left out of a long title; every piece must still be in it.
      const pieces = title
        .split("…")
        .map((piece) => piece.trim())
        .filter(Boolean);
      const present = source !== undefined && pieces.every((piece) => source.includes(piece));
      if (!present) missing.push(`${file} "${title}"`);
    }
    expect(missing, "TRUST.md cites tests that do not exist").to.deep.equal([]);
  });

  it("states the liveness guarantee with its bounds", () => {
    expect(TRUST).to.include("## Liveness: every round ends, every ticket is paid");
    expect(TRUST).to.match(/30 days after the round started plus 7 days/);
  });
});
