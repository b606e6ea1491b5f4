import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { freePort } from "@raffle/testing";

import { startApiHarness, type ApiHarness } from "./support/api-harness";
import { COMPILED_MAIN } from "../../api/test/support/compiled-main";

const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";

/** API_WORKERS=2: the real main (compiled) forks two workers on one port; one indexes, both serve; SIGTERM stops all. */
describe("API with API_WORKERS=2", () => {
  let harness: ApiHarness;
  let api: ChildProcess;
  let output = "";
  let url = "";

  beforeAll(async () => {
    harness = await startApiHarness("api_cluster", {
      indexer: { enabled: false, pollIntervalMs: 50, defaultSchedule: "* * * * *" },
    });
    const deploymentFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "raffle-cluster-")), "deployment.json");
    fs.writeFileSync(deploymentFile, JSON.stringify(harness.world.deployment));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    if (!fs.existsSync(COMPILED_MAIN)) throw new Error(`${COMPILED_MAIN} is missing: run \`npm run build\` first`);
    api = spawn(process.execPath, [COMPILED_MAIN], {
      env: {
        ...process.env,
        LOG_LEVEL: "info",
        PORT: String(port),
        API_WORKERS: "2",
        DATABASE_URL: harness.database.url,
        REDIS_URL,
        REDIS_KEY_PREFIX: `raffle-test-${process.pid}:`,
        RPC_URL: harness.node.rpcUrl,
        DEPLOYMENT_FILE: deploymentFile,
        INDEXER_POLL_INTERVAL_MS: "100",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    api.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    api.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 90_000;
    while ((output.match(/"api listening"/g) ?? []).length < 2) {
      if (Date.now() > deadline || api.exitCode !== null) throw new Error(`the clustered API did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 120_000);

  afterAll(async () => {
    // Either may be missing when beforeAll failed (no build yet): the chain and the database must still go.
    if (api && api.exitCode === null && api.signalCode === null) api.kill("SIGKILL");
    await harness?.close();
  });

  it("starts two workers on one port, and only worker 0 runs the indexer", () => {
    const listening = output
      .split("\n")
      .filter((line) => line.includes('"api listening"'))
      .map((line) => JSON.parse(line) as { worker: number; indexer: boolean });
    expect(listening.map((line) => [line.worker, line.indexer]).sort()).toEqual([
      [0, true],
      [1, false],
    ]);
  });

  it("runs each worker with its V8 flags (cluster.ts), single-threaded collections among them", () => {
    const pids = output
      .split("\n")
      .filter((line) => line.includes('"api listening"'))
      .map((line) => (JSON.parse(line) as { pid: number }).pid);
    for (const pid of pids) {
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      expect(argv).toEqual(expect.arrayContaining(["--max-semi-space-size=4", "--max-old-space-size=512", "--single-threaded-gc"]));
    }
  });

  it("serves requests and indexes the chain", async () => {
    const key = await harness.apiKey(await harness.world.merchant.getAddress());
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${url}/raffle/contracts?chainId=31337`, { headers: { authorization: `Bearer ${key}` } })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    const deadline = Date.now() + 20_000;
    let ready = 0;
    while (ready !== 200 && Date.now() < deadline) {
      ready = (await fetch(`${url}/ready`)).status;
      if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(ready).toBe(200);
  });

  it("stops every worker on SIGTERM", async () => {
    const pids = output
      .split("\n")
      .filter((line) => line.includes('"api listening"'))
      .map((line) => (JSON.parse(line) as { pid: number }).pid);
    expect(pids).toHaveLength(2);
    const exited = new Promise<number | null>((resolve) => api.once("exit", (code) => resolve(code)));
    api.kill("SIGTERM");
    expect(await exited).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  }, 30_000);
});
