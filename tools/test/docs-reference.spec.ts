import * as fs from "node:fs";
import * as path from "node:path";

import { PROBLEM_CODES } from "../../apps/api/src/common/problem-catalogue";
import { problemTypeUri } from "../../apps/api/src/common/problem-docs";
import { problemBody, problems } from "../../apps/api/src/common/problem";
import { ROOT, generatedPages } from "../docs/pages";
import { meaningProblems } from "../docs/settings-page";

/**
 * The docs generated from the code (settings, problem codes, webhook events, metrics, the last benchmark run) must be
 * what `npm run docs:generate` writes today: a setting, code, event type or metric added, renamed or removed without
 * regenerating them fails here. So does a link of the docs to a file that is not there.
 */
describe("the generated reference pages", () => {
  const pages = generatedPages();

  it.each(pages.map((page) => [page.file, page]))("%s is up to date (npm run docs:generate writes it)", (_file, page) => {
    const committed = fs.readFileSync(path.join(ROOT, page.file), "utf8");
    expect(committed).toBe(page.content);
  });

  it("gives every setting of the API and the merchant worker a meaning, and no meaning to a setting they do not read", () => {
    expect(meaningProblems()).toEqual([]);
  });

  it("answers every problem with a `type` that links to its entry of the problem reference", () => {
    const reference = fs.readFileSync(path.join(ROOT, "docs/reference/problems.md"), "utf8");
    const headings = new Set([...reference.matchAll(/^### (\w+)$/gm)].map((match) => match[1].toLowerCase()));
    expect(PROBLEM_CODES.length).toBeGreaterThan(30);
    for (const code of PROBLEM_CODES) {
      const anchor = problemTypeUri(code).split("#")[1];
      expect({ code, anchored: headings.has(anchor) }).toEqual({ code, anchored: true });
      expect(problemTypeUri(code)).toMatch(/\/docs\/reference\/problems\.md#/);
    }
    expect(problemBody(problems.roundNotFound(3), "/rounds/current").type).toBe(problemTypeUri("roundNotFound"));
  });
});

describe("the docs' links", () => {
  const markdownFiles = (dir: string): string[] =>
    fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return markdownFiles(file);
      return entry.name.endsWith(".md") ? [file] : [];
    });
  const files = ["README.md", "CHANGELOG.md", "libs/sdk/README.md", ...markdownFiles("docs")];

  /** GitHub's anchor of each heading of a Markdown file: lower case, punctuation dropped, spaces as dashes. */
  const anchorsOf = (file: string): Set<string> =>
    new Set(
      [...fs.readFileSync(file, "utf8").matchAll(/^#{1,6} (.+)$/gm)].map((match) =>
        match[1]
          .toLowerCase()
          .replace(/[^\p{L}\p{N}\s_-]/gu, "")
          .replace(/\s/g, "-"),
      ),
    );

  it.each(files.map((file) => [file]))("%s links only to files and headings that exist", (file) => {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]).filter((target) => !/^(https?:|mailto:)/.test(target));
    const missing = targets.filter((target) => {
      const [targetPath, anchor] = target.split("#");
      const resolved = targetPath ? path.resolve(ROOT, path.dirname(file), targetPath) : path.join(ROOT, file);
      if (!fs.existsSync(resolved)) return true;
      return anchor !== undefined && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor);
    });
    expect(missing).toEqual([]);
  });
});
