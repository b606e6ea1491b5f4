#!/usr/bin/env node
// `npm test`: every project's build, typecheck and tests, several suites side by side, then a table of each task's
// time (the CI budget is 15 minutes on 2 cores) and the totals of the suites as the last line, "N passed, N failed",
// with the exit code of the whole. Reports of earlier runs are removed first, so a project that did not run counts
// nothing. `npm test -- <project> ...` (e.g. `npm test -- @raffle/sdk @raffle/config`) runs only those projects.
//
// Two phases. First, through Nx, the contracts' compile (once for all) and every build: the API's and the worker's
// write the same dist/ tree, which the suites run, so no suite may start while a build still writes it. Then the
// suites, scheduled here rather than by Nx: Nx starts first the tasks other projects depend on, so the apps' suites,
// the longest, started last and set the run's tail; here the longest known start first and the short ones fill in
// (longest-processing-time-first scheduling). The typechecks run as one Nx task among them (cached by Nx).
const { spawn, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "../..");
const REPORTS = path.join(ROOT, "reports");
const LOGS = path.join(REPORTS, "logs");
const SUITE_SCRIPTS = ["test", "test:anvil", "test:invariant"];
// The tasks start in the order of the last measured full run (docs/data/ci-times.json, which every full run writes),
// the longest first, so the short ones fill the tail. A task the file does not know starts after the ones it knows.
const TYPECHECK = "typecheck (every project, Nx)";
const BUILD = "compile and build (Nx)";
const { CI_TIMES, readLongestFirst, writeCiTimes } = require("./ci-times");
// Suites side by side: most wait on chains, databases and timers more than they compute (a suite's CPU time is a
// fraction of its wall time). What made that safe (docs/development.md, "CI time"): the frozen build, and waits and
// bounds sized for a loaded machine. CI_TEST_PARALLEL=1 runs one at a time, to tell a slow suite from a loaded machine.
const PARALLEL = Math.max(1, Number(process.env.CI_TEST_PARALLEL ?? "3"));
const BROWSER_SUITES = ["@raffle/web:test"];
const BASE_ENV = { NX_DAEMON: "false", NX_NO_CLOUD: "true", NX_TUI: "false", ...process.env };
// The build is frozen while suites run: a Hardhat task a test runs compiles nothing (contracts/tasks/action.ts).
const SUITE_ENV = { ...BASE_ENV, RAFFLE_FROZEN_BUILD: "1" };

function workspaceProjects() {
  const { workspaces } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const dirs = workspaces.flatMap((pattern) => {
    if (!pattern.endsWith("/*")) return [pattern];
    const parent = pattern.slice(0, -2);
    return fs.readdirSync(path.join(ROOT, parent)).map((name) => `${parent}/${name}`);
  });
  return dirs
    .filter((dir) => fs.existsSync(path.join(ROOT, dir, "package.json")))
    .map((dir) => {
      const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, dir, "package.json"), "utf8"));
      return { dir, name: manifest.name, scripts: manifest.scripts ?? {}, tags: manifest.nx?.tags ?? [] };
    });
}

function plan(projects, scripts) {
  const suites = projects.flatMap((project) =>
    scripts
      .filter((script) => project.scripts[script])
      .map((script) => ({
        name: `${project.name}:${script}`,
        command: ["npm", "run", script, "--silent"],
        cwd: path.join(ROOT, project.dir),
        env: SUITE_ENV,
      })),
  );
  const typecheck = {
    name: TYPECHECK,
    command: [
      "npx",
      "nx",
      "run-many",
      "-t",
      "typecheck",
      "--exclude-task-dependencies",
      "--parallel=2",
      `--projects=${projects.map((p) => p.name).join(",")}`,
    ],
    cwd: ROOT,
    env: BASE_ENV,
  };
  const longestFirst = readLongestFirst();
  const rank = (task) => {
    const index = longestFirst.indexOf(task.name);
    const known = index === -1 ? longestFirst.length : index;
    // The browser suite waits for the first lane to free: started beside the API's and the tools' e2e suites, its
    // Chromium fought them for the two cores (web 478 s, npm test 865 s, against 319 s and 739 s started fourth).
    return BROWSER_SUITES.includes(task.name) ? Math.max(known, PARALLEL) : known;
  };
  return [...suites, typecheck].sort((a, b) => rank(a) - rank(b));
}

/** Runs one task with its output in reports/logs/<task>.log, printed whole when it ends (outputs never interleave). */
function runTask(task, startedAt) {
  const logFile = path.join(LOGS, `${task.name.replace(/[^a-zA-Z0-9.-]+/g, "_")}.log`);
  const log = fs.openSync(logFile, "w");
  const start = Date.now();
  console.log(`> ${task.name} started at ${((start - startedAt) / 1000).toFixed(0)} s`);
  return new Promise((resolve) => {
    const child = spawn(task.command[0], task.command.slice(1), { cwd: task.cwd, env: task.env, stdio: ["ignore", log, log] });
    child.on("error", (error) => fs.writeSync(log, `\n${error.message}\n`));
    child.on("close", (code) => {
      fs.closeSync(log);
      const seconds = (Date.now() - start) / 1000;
      const status = code === 0 ? "passed" : `failed (exit ${code})`;
      console.log(`\n== ${task.name}: ${status} in ${seconds.toFixed(0)} s`);
      process.stdout.write(fs.readFileSync(logFile, "utf8"));
      resolve({ task: task.name, seconds, startSeconds: (start - startedAt) / 1000, status: code === 0 ? "success" : "failure", code });
    });
  });
}

/** At most PARALLEL tasks at a time, in the order given. */
async function runAll(tasks, startedAt) {
  const queue = [...tasks];
  const results = [];
  const lane = async () => {
    for (let task = queue.shift(); task; task = queue.shift()) results.push(await runTask(task, startedAt));
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, tasks.length) }, lane));
  return results;
}

/**
 * Runs the build phase, then the suites (`scripts` of each project) and the typechecks of `projects`, prints the
 * table of times and the totals line, and answers the exit code. `record` writes docs/data/ci-times.json.
 */
async function runTests({ projects, scripts = SUITE_SCRIPTS, record = false }) {
  fs.mkdirSync(REPORTS, { recursive: true });
  for (const file of fs.readdirSync(REPORTS)) {
    if (/\.(jest|mocha)\.json$/.test(file) || /^nx-profile\./.test(file)) fs.rmSync(path.join(REPORTS, file));
  }
  fs.rmSync(LOGS, { recursive: true, force: true });
  fs.mkdirSync(LOGS, { recursive: true });
  const countResults = (status) =>
    spawnSync(process.execPath, [path.join(__dirname, "count-results.js"), REPORTS, String(status), "jest", "mocha"], { stdio: "inherit" }).status ??
    1;
  if (projects.length === 0) {
    console.log("no project to test");
    return countResults(0);
  }

  const startedAt = Date.now();
  const nx = spawnSync(
    "npx",
    ["nx", "run-many", "-t", "compile", "build", `--parallel=${PARALLEL}`, `--projects=${projects.map((p) => p.name).join(",")}`],
    { cwd: ROOT, env: BASE_ENV, stdio: "inherit" },
  );
  const buildRow = { task: BUILD, seconds: (Date.now() - startedAt) / 1000, startSeconds: 0, status: nx.status === 0 ? "success" : "failure" };
  // Suites run on a failed build too: each says what it misses, and the totals count the failure below.
  const results = [buildRow, ...(await runAll(plan(projects, scripts), startedAt))];
  const status = results.some((row) => row.status !== "success") ? 1 : 0;

  const wallMs = Date.now() - startedAt;
  const { formatTable } = require("./suite-times");
  console.log("\ntime of each task of npm test:");
  console.log(
    formatTable(
      [...results].sort((a, b) => b.seconds - a.seconds),
      wallMs,
    ),
  );
  if (record) {
    writeCiTimes(results, wallMs, PARALLEL);
    console.log(`wrote ${path.relative(ROOT, CI_TIMES)}`);
  }
  return countResults(status);
}

async function main() {
  const wanted = process.argv.slice(2);
  const projects = workspaceProjects().filter((project) => wanted.length === 0 || wanted.includes(project.name));
  if (projects.length === 0) throw new Error(`no workspace project is named ${wanted.join(", ")}`);
  // Only a run of every project measures CI: a run of a few projects (or test:affected) leaves the file as it is.
  process.exit(await runTests({ projects, record: wanted.length === 0 }));
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    console.log("0 passed, 1 failed");
    process.exit(1);
  });
}

module.exports = { ROOT, runTests, workspaceProjects };
