#!/usr/bin/env node
// `npm run test:affected`: only the suites a change can break, through `npm test`'s machinery (tools/ci/run-tests.js:
// the build phase, the suites side by side, the table of times, the totals line). "A change" is everything between
// the merge base and the working tree, uncommitted and untracked files included.
//
//   npm run test:affected                   # against the merge base with origin/main, or main without a remote
//   npm run test:affected -- --base HEAD~3  # against any commit
//   npm run test:affected -- --ci           # the stacks too, and the anvil and invariant suites, as CI runs them
//
// Locally it runs the `test` suite of each affected project, except the projects tagged `e2e` (their suites start
// other apps' stacks: chains, the API, the worker): those run when a file of their own changed, and with --ci whenever
// a project they depend on did. So a change in the indexer runs the indexer's and the API's own suites locally.
const { spawnSync } = require("node:child_process");

const { ROOT, runTests, workspaceProjects } = require("../ci/run-tests");

const ENV = { NX_DAEMON: "false", NX_NO_CLOUD: "true", NX_TUI: "false", ...process.env };

function run(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, env: ENV, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${result.stderr || result.stdout}`);
  return result.stdout.trim();
}

function gitRefExists(ref) {
  return spawnSync("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { cwd: ROOT }).status === 0;
}

/** The commit the change started from: `--base`, else the merge base with origin/main, else with main. */
function resolveBase(argv) {
  const index = argv.indexOf("--base");
  const given = index === -1 ? undefined : argv[index + 1];
  if (index !== -1 && !given) throw new Error("--base needs a commit, e.g. --base main");
  const ref = given ?? ["origin/main", "main"].find(gitRefExists);
  if (!ref) throw new Error("no origin/main or main here: name the base, e.g. npm run test:affected -- --base HEAD~1");
  if (!gitRefExists(ref)) throw new Error(`${ref} is not a commit`);
  return { ref, sha: run("git", ["merge-base", "HEAD", ref]) };
}

/** Files changed since `sha` in the working tree: committed, staged, unstaged and untracked. */
function changedFiles(sha) {
  const diff = run("git", ["diff", "--name-only", sha]);
  const untracked = run("git", ["ls-files", "--others", "--exclude-standard"]);
  return [...new Set([...diff.split("\n"), ...untracked.split("\n")].filter(Boolean))];
}

/** The project owning `file` (the deepest project folder holding it), or undefined for files of the root. */
function ownerOf(file, projects) {
  const owners = projects.filter((project) => file.startsWith(`${project.dir}/`));
  return owners.sort((a, b) => b.dir.length - a.dir.length)[0];
}

// Files of the root that Nx reads for every project: a change to one of them can affect any project.
const WORKSPACE_FILES = ["package.json", "package-lock.json", "nx.json", "tsconfig.base.json"];

/** Nx's affected projects; none, without starting Nx, when every changed file is outside every project (docs). */
function affectedProjects(files, projects, sha) {
  const inProjects = files.some((file) => WORKSPACE_FILES.includes(file) || ownerOf(file, projects));
  if (!inProjects) return [];
  return JSON.parse(run("npx", ["nx", "show", "projects", "--affected", `--base=${sha}`, "--json"]));
}

/** Which projects' suites to run, and why: pure, so the choice is testable without Nx or git. */
function choose({ projects, affected, e2e, touched, ci }) {
  return projects.filter((project) => affected.includes(project.name) && (ci || !e2e.includes(project.name) || touched.includes(project.name)));
}

async function main() {
  const argv = process.argv.slice(2);
  const ci = argv.includes("--ci");
  const started = Date.now();
  const base = resolveBase(argv);
  const projects = workspaceProjects();
  const files = changedFiles(base.sha);
  const touched = [...new Set(files.map((file) => ownerOf(file, projects)?.name).filter(Boolean))];
  const affected = affectedProjects(files, projects, base.sha);
  // The tags are read where Nx reads them, each project's package.json `nx` field.
  const e2e = projects.filter((project) => project.tags.includes("e2e")).map((project) => project.name);
  const chosen = choose({ projects, affected, e2e, touched, ci });

  console.log(`base: ${base.ref} (merge base ${base.sha.slice(0, 10)}), ${files.length} files changed`);
  console.log(`affected: ${affected.join(", ") || "none"}`);
  const skipped = affected.filter((name) => !chosen.some((project) => project.name === name));
  if (skipped.length > 0) console.log(`not run here (stacks; --ci runs them): ${skipped.join(", ")}`);
  console.log(`chosen in ${((Date.now() - started) / 1000).toFixed(1)} s: ${chosen.map((p) => p.name).join(", ") || "no suite"}`);
  process.exit(await runTests({ projects: chosen, scripts: ci ? undefined : ["test"] }));
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error.message ?? error);
    console.log("0 passed, 1 failed");
    process.exit(1);
  });
}

module.exports = { affectedProjects, choose, ownerOf };
