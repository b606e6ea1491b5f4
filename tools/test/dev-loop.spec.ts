import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

// The scripts of the development loop are plain Node (they start before anything is compiled).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { affectedProjects, choose, ownerOf } = require("../loop/test-affected.js");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { readLongestFirst, writeCiTimes } = require("../ci/ci-times.js");

const ROOT = path.resolve(__dirname, "../..");
const PROJECTS = [
  { dir: "apps/api", name: "@raffle/api" },
  { dir: "apps/api-e2e", name: "@raffle/api-e2e" },
  { dir: "libs/indexer", name: "@raffle/indexer" },
  { dir: "apps/merchant-worker", name: "@raffle/merchant-worker" },
];

describe("test:affected", () => {
  it("runs the affected projects' own suites and leaves the stacks to CI", () => {
    const affected = ["@raffle/indexer", "@raffle/api", "@raffle/api-e2e", "@raffle/merchant-worker"];
    const e2e = ["@raffle/api-e2e", "@raffle/merchant-worker"];
    const local = choose({ projects: PROJECTS, affected, e2e, touched: ["@raffle/indexer"], ci: false });
    expect(local.map((p: { name: string }) => p.name)).toEqual(["@raffle/api", "@raffle/indexer"]);
    const ci = choose({ projects: PROJECTS, affected, e2e, touched: ["@raffle/indexer"], ci: true });
    expect(ci.map((p: { name: string }) => p.name)).toEqual(["@raffle/api", "@raffle/api-e2e", "@raffle/indexer", "@raffle/merchant-worker"]);
  });

  it("runs a stack project's suites when its own files changed", () => {
    const chosen = choose({ projects: PROJECTS, affected: ["@raffle/api-e2e"], e2e: ["@raffle/api-e2e"], touched: ["@raffle/api-e2e"], ci: false });
    expect(chosen.map((p: { name: string }) => p.name)).toEqual(["@raffle/api-e2e"]);
  });

  it("runs nothing when nothing is affected", () => {
    expect(choose({ projects: PROJECTS, affected: [], e2e: [], touched: [], ci: true })).toEqual([]);
  });

  it("finds no project affected by files outside every project, without asking Nx", () => {
    // A base that is no commit: were Nx asked, it would fail.
    expect(affectedProjects(["docs/README.md", "docs/data/ci-times.json", "README.md"], PROJECTS, "not-a-commit")).toEqual([]);
    expect(() => affectedProjects(["docs/README.md", "apps/api/src/main.ts"], PROJECTS, "not-a-commit")).toThrow(/failed/);
  });

  it("gives a file to the deepest project holding it, and root files to none", () => {
    expect(ownerOf("apps/api-e2e/test/claims.e2e.spec.ts", PROJECTS)?.name).toBe("@raffle/api-e2e");
    expect(ownerOf("apps/api/src/main.ts", PROJECTS)?.name).toBe("@raffle/api");
    // A sibling whose name starts like a project's is not inside it.
    expect(ownerOf("apps/api-other/x.ts", PROJECTS)).toBeUndefined();
    expect(ownerOf("docs/development.md", PROJECTS)).toBeUndefined();
  });

  it("refuses a base that is not a commit, with the totals line CI reads", () => {
    const run = spawnSync(process.execPath, [path.join(ROOT, "tools/loop/test-affected.js"), "--base", "no-such-ref-$(rm -rf x)"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("is not a commit");
    expect(run.stdout.trim().split("\n").pop()).toBe("0 passed, 1 failed");
  });
});

describe("CI time as data", () => {
  it("writes each task's time and reads back the longest first", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ci-times-")), "ci-times.json");
    const rows = [
      { task: "short", seconds: 3.04, startSeconds: 10, status: "success" },
      { task: "long", seconds: 300.26, startSeconds: 0, status: "failure" },
      { task: "middle", seconds: 40, startSeconds: 5, status: "success" },
    ];
    const record = writeCiTimes(rows, 310_000, 3, file);
    expect(record.cores).toBe(os.cpus().length);
    expect(record.wallSeconds).toBe(310);
    expect(record.tasks[0]).toEqual({ task: "long", seconds: 300.3, startSeconds: 0, status: "failure" });
    expect(readLongestFirst(file)).toEqual(["long", "middle", "short"]);
  });

  it("starts in no particular order when no run was recorded", () => {
    expect(readLongestFirst(path.join(os.tmpdir(), "no-such-ci-times.json"))).toEqual([]);
  });

  it("keeps the committed record readable by the scheduler", () => {
    const order = readLongestFirst();
    expect(order.length).toBeGreaterThan(0);
    expect(new Set(order).size).toBe(order.length);
  });
});
