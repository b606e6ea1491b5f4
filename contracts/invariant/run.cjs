#!/usr/bin/env node
// Runs the forge invariant suite (invariant/RaffleInvariants.t.sol) and reports it like the other suites:
//   node invariant/run.cjs [--profile ci|nightly] [--runs N] [--depth N] [--seed 0x..] [--match REGEX] [--jobs N]
//                          [--report FILE]
// It prints one line per invariant (sequences x depth, calls, reverts, time), the call summary summed over every
// distinct sequence, and checks that the sequences really exercised every kind of action (so the suite cannot pass
// vacuously). It writes a Mocha-shaped report ({passes, failures, ...}) that .ci/run adds to CI's totals, and exits
// non-zero when an invariant or the coverage check fails, or when forge itself fails.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const crypto = require("node:crypto");
const os = require("node:os");
const { spawn, spawnSync } = require("node:child_process");

const root = path.resolve(__dirname, "..");
const args = parseArgs(process.argv.slice(2));
const profile = args.profile ?? "ci";
const reportFile = path.resolve(
  process.cwd(),
  args.report ?? path.join(root, "..", "reports", profile === "ci" ? "contracts-invariant.mocha.json" : `contracts-invariant-${profile}.mocha.json`),
);

/** The `ci` profile's seed, unless --seed or FUZZ_SEED gives another. */
const CI_SEED = "0x1111111111111111";

// Kinds of action the sequences of a campaign must have made at least once, summed over all its sequences.
const REQUIRED = [
  "buy.ok",
  "buy.rejected.expired",
  "buy.rejected.nonceReused",
  "buy.rejected.wrongPrice",
  "buy.rejected.badSigner",
  "buy.rejected.exchangePaused",
  "buy.rejected.rafflePaused",
  "buy.rejected.noActiveRound",
  "buy.storedRejected",
  "ticket.transferred",
  "round.started",
  "round.rejected.tokenNotAllowed",
  "end.singleTicketWins",
  "end.vrfRequested",
  "end.overdueByAnyone",
  "vrf.drawn",
  "vrf.duplicateIgnored",
  "vrf.lateIgnored",
  "vrf.unknownCallerRefused",
  "claim.ok",
  "claim.rejected.drawn",
  "claim.afterBlockedWinnerMoved",
  "release.ok",
  "release.rejected.tooEarly",
  "commission.withdrawn",
  "refunds.enabled",
  "refund.ok",
  "hostile.answerOwnDraw",
  "hostile.fakeCoordinator",
  "hostile.grantFactoryAdmin",
  "exchange.paused",
  "raffle.paused",
  "signer.rotated",
  "vrfConfig.coordinatorChangedWhileDrawing",
  "priceToken.delisted",
  "drawBudget.set",
  "drawBudget.belowFloorRefused",
  "end.drawRefused.coordinator",
  "vrfConfig.burnerApplied",
  "raffle.deployedPast100",
  "time.warp",
  "buy.manyTickets",
  "buy.rejected.walletLimit",
  "buy.rejected.quantity",
  "rules.set",
  "rules.rejected.invalid",
  "round.startedWithSeveralWinners",
  "end.belowMinimum",
  "refund.belowMinimum",
  "draw.severalWinners",
  "draw.rehashedPastDuplicate",
  "vrf.winnersLeftToFinish",
  "draw.finished",
  "claim.batch",
  "refund.batch",
  // Contract wallet players (see HandlerBase): the mint callback moves tickets, re-enters, refuses.
  "wallet.bought",
  "wallet.boughtItself",
  "wallet.callback",
  "wallet.reentered.purchaseRefused",
  "wallet.reentered.claim",
  "wallet.reentered.refund",
  "wallet.reentered.release",
  "wallet.refusedTickets",
  "wallet.ticketsHeld",
  "vrfConfig.callbackGasTooLowRefused",
  "vrfConfig.minimumCallbackGas",
  // Item prizes (ItemInvariants): escrowed, refused at start, claimed, returned, and hostile tokens and wallets.
  "items.escrowed",
  "items.claimed",
  "items.returned",
  "round.refusedItems",
  "hostile.changed",
];

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m) throw new Error(`unknown argument ${argv[i]}`);
    out[m[1]] = m[2] ?? argv[++i];
  }
  return out;
}

function forgeBinary() {
  if (process.env.FORGE) return process.env.FORGE;
  try {
    return path.join(path.dirname(require.resolve("@foundry-rs/forge-linux-amd64/package.json")), "bin", "forge");
  } catch {
    return null;
  }
}

function writeReport(report) {
  fs.mkdirSync(path.dirname(reportFile), { recursive: true });
  fs.writeFileSync(reportFile, JSON.stringify(report, null, 2));
}

function fail(message) {
  console.error(`invariant suite: ${message}`);
  writeReport({ suites: 1, tests: 1, passes: 0, pending: 0, failures: 1, error: message });
  process.exit(1);
}

const fmt = (n) => Number(n).toLocaleString("en-US");

/** CPU seconds of this process's finished children (forge), from /proc (Linux; forge here is the linux build). */
function childCpuSeconds() {
  try {
    const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime, in ticks of 1/100 s
  } catch {
    return NaN;
  }
}

function campaigns() {
  const list = [];
  for (const file of fs.readdirSync(__dirname).filter((f) => f.endsWith(".t.sol"))) {
    const source = fs.readFileSync(path.join(__dirname, file), "utf8");
    const contract = /contract\s+(\w+)/.exec(source)[1];
    for (const [, name] of source.matchAll(/function\s+(invariant_\w+)\s*\(/g)) list.push({ file, contract, name });
  }
  return list.filter((c) => !args.match || new RegExp(args.match).test(c.name));
}

function runForge(forge, forgeArgs, env) {
  return new Promise((resolve) => {
    const child = spawn(forge, forgeArgs, { cwd: root, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (error) => resolve({ status: -1, stdout, stderr: stderr + error.message }));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

async function main() {
  const forge = forgeBinary();
  if (!forge || !fs.existsSync(forge)) {
    fail("forge not found: `npm ci` installs @foundry-rs/forge-linux-amd64 on linux-x64 (elsewhere set FORGE=/path/to/forge)");
  }
  if (!fs.existsSync(path.join(root, "artifacts", "src", "Raffle.sol", "Raffle.json"))) {
    fail("Hardhat artifacts missing: run `npm run compile` first (the suite fuzzes Hardhat's bytecode)");
  }
  const statsDir = path.join(root, "forge-out", "invariant-stats");
  fs.rmSync(statsDir, { recursive: true, force: true });
  fs.mkdirSync(statsDir, { recursive: true });

  const env = { ...process.env, FOUNDRY_PROFILE: profile };
  if (args.runs) env.FOUNDRY_INVARIANT_RUNS = String(args.runs);
  if (args.depth) env.FOUNDRY_INVARIANT_DEPTH = String(args.depth);
  // One seed for the whole run, printed: each campaign gets seed + its index, so campaigns differ from each other
  // (forge gives every test of one process the same seed) and any run can be replayed exactly. CI's profile has a
  // fixed one, so its verdict (the coverage check too: a few kinds of action happen only a handful of times in 2,048
  // sequences, and one random seed once made no batch claim) belongs to the code, not to the draw; the nightly
  // profile draws a new one each run, to explore.
  const baseSeed = BigInt(args.seed ?? process.env.FUZZ_SEED ?? (profile === "ci" ? CI_SEED : "0x" + crypto.randomBytes(8).toString("hex")));
  const started = Date.now();

  const build = spawnSync(forge, ["build"], { cwd: root, env, encoding: "utf8" });
  const compileSeconds = (Date.now() - started) / 1000;
  if (build.status !== 0) {
    process.stdout.write(build.stdout);
    process.stderr.write(build.stderr);
    fail(`forge build failed (${build.status})`);
  }
  const list = campaigns();
  const jobs = Math.max(1, Math.min(list.length, Number(args.jobs ?? os.availableParallelism?.() ?? os.cpus().length)));
  console.log(
    `invariant suite: profile ${profile}, ${list.length} campaigns, ${jobs} at a time, seed 0x${baseSeed.toString(16)}` +
      ` (harness compiled in ${compileSeconds.toFixed(1)} s)`,
  );

  const results = new Array(list.length);
  let next = 0;
  async function worker() {
    while (next < list.length) {
      const i = next++;
      const c = list[i];
      const seed = "0x" + ((baseSeed + BigInt(i)) % (1n << 256n)).toString(16);
      const statsFile = path.join(statsDir, `${c.name}.csv`);
      const t0 = Date.now();
      const run = await runForge(
        forge,
        [
          "test",
          "--json",
          "--match-path",
          `invariant/${c.file}`,
          "--match-contract",
          `^${c.contract}$`,
          "--match-test",
          `^${c.name}\\(`,
          "--fuzz-seed",
          seed,
          "-j",
          "1",
        ],
        { ...env, INVARIANT_STATS: path.relative(root, statsFile) },
      );
      results[i] = { ...c, seed, run, statsFile, seconds: (Date.now() - t0) / 1000 };
    }
  }
  await Promise.all(Array.from({ length: jobs }, worker));
  const wall = (Date.now() - started) / 1000;
  const cpu = childCpuSeconds();

  let sequences = 0;
  let calls = 0;
  let failures = 0;
  let depth = 0;
  let distinctTotal = 0;
  const metrics = {};
  const summary = {};
  const reported = [];
  console.log("");
  for (const r of results) {
    let test;
    try {
      const parsed = JSON.parse(r.run.stdout.slice(r.run.stdout.indexOf("{")));
      test = Object.values(parsed).flatMap((suite) => Object.entries(suite.test_results).map(([name, t]) => ({ name, ...t })))[0];
    } catch {
      test = null;
    }
    if (!test) {
      failures += 1;
      reported.push({ name: r.name, status: "Failure", reason: `forge exited with ${r.run.status} and no result` });
      console.log(`  FAIL  ${r.name.padEnd(26)} forge exited with ${r.run.status} and no result`);
      process.stdout.write(r.run.stdout.slice(-4000));
      process.stderr.write(r.run.stderr.slice(-4000));
      continue;
    }
    const inv = test.kind?.Invariant ?? { runs: 0, calls: 0, reverts: 0 };
    const ok = test.status === "Success";
    if (!ok) failures += 1;
    sequences += inv.runs;
    calls += inv.calls;
    const steps = inv.runs ? Math.round(inv.calls / inv.runs) : 0;
    depth = Math.max(depth, steps);
    for (const [selector, m] of Object.entries(inv.metrics ?? {})) {
      const key = selector.split(".").pop();
      metrics[key] = (metrics[key] ?? 0) + m.calls;
    }
    // Each sequence leaves one line (forge replays a campaign's last sequence once more: same line, dropped here).
    const lines = fs.existsSync(r.statsFile) ? fs.readFileSync(r.statsFile, "utf8").split("\n").filter(Boolean) : [];
    const distinct = new Set(lines);
    distinctTotal += distinct.size;
    for (const line of distinct) {
      for (const field of line.split(";").slice(1)) {
        const [k, v] = field.split("=");
        summary[k] = (summary[k] ?? 0) + Number(v);
      }
    }
    reported.push({ name: r.name, status: test.status, reason: test.reason ?? null, seed: r.seed, runs: inv.runs, calls: inv.calls });
    console.log(
      `  ${ok ? "PASS" : "FAIL"}  ${r.name.padEnd(26)} ${fmt(inv.runs)} sequences x ${steps} steps = ${fmt(inv.calls)} calls,` +
        ` ${fmt(inv.reverts)} reverts, ${fmt(distinct.size)} distinct settled  (${r.seconds.toFixed(1)} s, seed ${r.seed})`,
    );
    if (!ok) {
      console.log(`        reason: ${test.reason}`);
      const sequence = test.counterexample?.Sequence;
      if (sequence) {
        console.log(
          `        counterexample, ${sequence.length} calls (forge keeps it in forge-cache/invariant/failures and replays it first next time):`,
        );
        for (const call of sequence) console.log(`          ${call.func_name ?? call.signature ?? "?"}(${call.args ?? ""})`);
      }
      for (const log of test.decoded_logs ?? []) console.log(`        log: ${log}`);
      // Alone, the campaign is the first of the run, so the run's seed must be its own (base + its index here).
      console.log(`        replay: node invariant/run.cjs --profile ${profile} --match '^${r.name}$' --seed ${r.seed}`);
    }
  }

  const missing = REQUIRED.filter((k) => !summary[k]);
  const coverageOk = missing.length === 0;
  console.log("");
  console.log(`Call summary: outcomes the handler observed, over ${fmt(distinctTotal)} distinct sequences:`);
  const keys = Object.keys(summary).sort();
  const width = Math.max(10, ...keys.map((k) => k.length));
  for (let i = 0; i < keys.length; i += 3) {
    console.log(
      "  " +
        keys
          .slice(i, i + 3)
          .map((k) => `${k.padEnd(width)} ${fmt(summary[k]).padStart(8)}`)
          .join("   "),
    );
  }
  const reentries = ["purchaseRefused", "claim", "refund", "release"].map((k) => `${k} ${fmt(summary[`wallet.reentered.${k}`] ?? 0)}`);
  console.log("");
  console.log(
    `Contract wallets: ${fmt(summary["wallet.callback"] ?? 0)} mint callbacks re-entered (${reentries.join(", ")}); ` +
      `${fmt(summary["wallet.ticketsBought"] ?? 0)} tickets bought, ${fmt(summary["wallet.ticketsHeld"] ?? 0)} held at settlement; ` +
      `${fmt(summary["wallet.refusedTickets"] ?? 0)} purchases refused by the wallet.`,
  );
  console.log(
    `Item prizes: ${fmt(summary["items.escrowed"] ?? 0)} escrowed, ${fmt(summary["items.claimed"] ?? 0)} claimed, ` +
      `${fmt(summary["items.returned"] ?? 0)} returned; ${fmt(summary["round.refusedItems"] ?? 0)} rounds refused at start for their items.`,
  );
  console.log("");
  console.log("Handler calls by action (forge metrics, all campaigns):");
  const actions = Object.keys(metrics).sort();
  for (let i = 0; i < actions.length; i += 4) {
    console.log(
      "  " +
        actions
          .slice(i, i + 4)
          .map((k) => `${k.padEnd(27)} ${fmt(metrics[k]).padStart(7)}`)
          .join("  "),
    );
  }
  console.log("");
  // Checked on complete runs only: a failing campaign stops early, and a subset (--match) proves little.
  const coverageRequired = !args.match && failures === 0;
  if (coverageRequired) {
    console.log(
      coverageOk ? `  PASS  every kind of action happened (${REQUIRED.length} kinds checked)` : `  FAIL  never happened: ${missing.join(", ")}`,
    );
  }
  const coverageFailed = coverageRequired && !coverageOk ? 1 : 0;
  const passes = reported.length - failures + (coverageRequired && coverageOk ? 1 : 0);
  const failed = failures + coverageFailed;
  console.log("");
  console.log(
    `invariant suite: ${reported.length} invariants, ${fmt(sequences)} sequences x ${depth} steps, ${fmt(calls)} calls, ` +
      `${wall.toFixed(1)} s including ${compileSeconds.toFixed(1)} s of compilation (forge CPU ${cpu.toFixed(0)} s); ` +
      `${passes} passed, ${failed} failed`,
  );
  writeReport({
    suites: 1,
    tests: reported.length + (coverageRequired ? 1 : 0),
    passes,
    pending: 0,
    failures: failed,
    start: new Date(started).toISOString(),
    end: new Date().toISOString(),
    duration: Math.round(wall * 1000),
    cpuSeconds: cpu,
    profile,
    seed: "0x" + baseSeed.toString(16),
    sequences,
    depth,
    calls,
    invariants: reported,
    missingActions: missing,
  });
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((error) => fail(error.stack ?? String(error)));
