import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { freePort } from "@raffle/testing";

import { startApiHarness, type ApiHarness } from "./support/api-harness";
import { COMPILED_MAIN } from "../../api/test/support/compiled-main";

type Line = Record<string, unknown> & { level: string; message: string };

/** The compiled API, as production runs it, with `env` over the harness's database and chain; its lines collected. */
class CompiledApi {
  readonly child: ChildProcess;
  private output = "";

  constructor(env: Record<string, string>) {
    if (!fs.existsSync(COMPILED_MAIN)) throw new Error(`${COMPILED_MAIN} is missing: run \`npm run build\` first`);
    this.child = spawn(process.execPath, [COMPILED_MAIN], { env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    this.child.stdout!.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr!.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
  }

  lines(): Line[] {
    return this.output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Line);
  }

  async waitFor(message: string, timeoutMs = 90_000): Promise<Line> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = this.lines().find((candidate) => candidate.message === message);
      if (line) return line;
      if (Date.now() > deadline || this.child.exitCode !== null) throw new Error(`no "${message}" line:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  stop(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
  }
}

async function connectError(url: string): Promise<string | number> {
  try {
    return (await fetch(url)).status;
  } catch (error) {
    return String((error as { cause?: { code?: string } }).cause?.code ?? error);
  }
}

/**
 * Issue 31, items 7, 8, 9 and 10, on the compiled API: HOST, one start line and a stop line with its signal, probes
 * and scrapes at debug, prom-client's default series, /ready failing a chain whose index is above its head, and a
 * node outage whose first line names the chain and its setting.
 */
describe("the compiled API's process: address, lines, default metrics and honest readiness", () => {
  let harness: ApiHarness;
  let api: CompiledApi;
  let port = 0;
  let deploymentFile = "";
  let base: Record<string, string>;

  beforeAll(async () => {
    harness = await startApiHarness("api_lifecycle", { indexer: { enabled: false, pollIntervalMs: 50, defaultSchedule: "* * * * *" } });
    deploymentFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "raffle-lifecycle-")), "deployment.json");
    fs.writeFileSync(deploymentFile, JSON.stringify(harness.world.deployment));
    port = await freePort();
    base = { LOG_LEVEL: "info", DATABASE_URL: harness.database.url, DEPLOYMENT_FILE: deploymentFile };
    // 127.0.0.2 is loopback too: bound there alone, the API must refuse 127.0.0.1. The indexer is off: the test moves
    // the cursor itself.
    api = new CompiledApi({ ...base, PORT: String(port), HOST: "127.0.0.2", RPC_URL: harness.node.rpcUrl, API_ROLES: "serve,deliver" });
    await api.waitFor("api listening");
  }, 120_000);

  afterAll(async () => {
    api?.stop();
    await harness?.close();
  });

  it("listens on HOST alone and says so in one start line, without a line per route", async () => {
    expect(await connectError(`http://127.0.0.2:${port}/health`)).toBe(200);
    expect(await connectError(`http://127.0.0.1:${port}/health`)).toBe("ECONNREFUSED");
    const lines = api.lines();
    expect(lines.filter((line) => line.message === "api listening")).toEqual([
      expect.objectContaining({ level: "info", host: "127.0.0.2", port, worker: 0 }),
    ]);
    expect(lines.filter((line) => /^Mapped \{/.test(line.message) || line.context === "RouterExplorer")).toEqual([]);
    expect(lines.filter((line) => line.level === "info").length).toBeLessThan(8);
  });

  it("logs probes and scrapes at debug, other requests at info", async () => {
    const url = `http://127.0.0.2:${port}`;
    for (const probe of ["/health", "/ready", "/status", "/metrics", "/ready?chainId=31337"]) await fetch(`${url}${probe}`);
    const key = await harness.apiKey(await harness.world.merchant.getAddress());
    expect((await fetch(`${url}/raffle/contracts?chainId=31337`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    await api.waitFor("request");
    const requests = api.lines().filter((line) => line.message === "request");
    expect(requests.map((line) => line.path)).toEqual(["/raffle/contracts"]);
  });

  it("serves prom-client's default process and Node.js series on /metrics", async () => {
    const text = await (await fetch(`http://127.0.0.2:${port}/metrics`)).text();
    for (const series of [
      "process_cpu_user_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
      "nodejs_eventloop_lag_p99_seconds",
      "nodejs_gc_duration_seconds",
      "raffle_api_request_duration_seconds",
    ]) {
      expect(text).toMatch(new RegExp(`^# TYPE ${series} `, "m"));
    }
  });

  it("fails /ready for a chain whose index is above the chain's head (a node reset under it), naming the reset command", async () => {
    const head = await harness.node.provider.getBlockNumber();
    const { Client } = await import("pg");
    const client = new Client({ connectionString: harness.database.url });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO indexer_cursor (chain_id, block_number, block_hash) VALUES (31337, $1, $2)
         ON CONFLICT (chain_id) DO UPDATE SET block_number = EXCLUDED.block_number, block_hash = EXCLUDED.block_hash`,
        [head + 500, `0x${"ab".repeat(32)}`],
      );
    } finally {
      await client.end();
    }
    // /ready answers from a check at most a second old.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    for (const query of ["", "?chainId=31337"]) {
      const answer = await fetch(`http://127.0.0.2:${port}/ready${query}`);
      expect(answer.status).toBe(503);
      const body = (await answer.json()) as { code: string; errors: Array<{ field: string; message: string }> };
      expect(body.code).toBe("notReady");
      expect(body.errors).toEqual(
        expect.arrayContaining([
          {
            field: "indexer",
            message: expect.stringMatching(
              new RegExp(`cursor, block ${head + 500}, is above the chain's head, block \\d+.*\`npm run indexer -- reset --chain 31337\``),
            ),
          },
        ]),
      );
    }
  });

  it("with the node down, the first line names the chain and RPC_URL, and no line says only 'fetch failed'", async () => {
    // A port nobody listens on (fetch refuses some low ports outright, "bad port", before any connection).
    const deadNode = `http://127.0.0.1:${await freePort()}`;
    const down = new CompiledApi({ ...base, PORT: String(await freePort()), HOST: "127.0.0.1", RPC_URL: deadNode, INDEXER_POLL_INTERVAL_MS: "100" });
    try {
      await down.waitFor("api listening");
      await down.waitFor("indexer step failed; retrying until it succeeds (logged once per distinct error)", 30_000);
      const troubles = down.lines().filter((line) => line.level === "error" || line.level === "warn");
      expect(troubles[0]).toMatchObject({ chainId: 31337, message: expect.stringContaining("RPC_URL") });
      const indexerLine = troubles.find((line) => line.component === "indexer")!;
      expect(indexerLine.error).toMatch(/^chain 31337: the node at RPC_URL failed .*ECONNREFUSED/);
      expect(troubles.filter((line) => line.error === "fetch failed")).toEqual([]);
    } finally {
      down.child.kill("SIGTERM");
      await new Promise((resolve) => down.child.once("exit", resolve));
      down.stop();
    }
  }, 90_000);

  it("on SIGTERM writes a stop line with the signal, then exits 0", async () => {
    const exited = new Promise<[number | null, string | null]>((resolve) => api.child.once("exit", (code, signal) => resolve([code, signal])));
    api.child.kill("SIGTERM");
    // Nest closes the app, then ends the process with the signal it got (the conventional exit of a signalled process).
    expect([
      [0, null],
      [null, "SIGTERM"],
    ]).toContainEqual(await exited);
    expect(api.lines().filter((line) => line.message === "api stopping")).toEqual([
      expect.objectContaining({ level: "info", signal: "SIGTERM", pid: api.child.pid }),
    ]);
  }, 30_000);
});
