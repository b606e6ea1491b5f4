import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { buyTicket, deployTestRaffle } from "@raffle/chain/testing";
import { eventually, freePort } from "@raffle/testing";

import { fastWebhooks, startApiHarness, type ApiHarness } from "./support/api-harness";
import { COMPILED_MAIN, PACED_API_MAIN } from "../../api/test/support/compiled-main";
import { indexedRaffleId } from "./support/indexed-raffle";
import { WebhookReceiver, type ReceivedMessage } from "./support/webhook-receiver";

/**
 * Delivery by separate API processes (the compiled API, with a quick webhook pace) on one database: the in-process API
 * only indexes and writes the outbox; the children, API_ROLES=deliver, deliver. A child killed with SIGKILL mid-work loses nothing, and
 * two children never send one message twice.
 */
describe("webhook delivery across API processes", () => {
  let harness: ApiHarness;
  let key: string;
  let deploymentFile: string;
  const children: ChildProcess[] = [];
  const receiver = new WebhookReceiver();

  /** An API process that delivers webhooks and does not index; resolves once it listens. */
  async function startDeliverer(): Promise<ChildProcess> {
    if (!fs.existsSync(COMPILED_MAIN)) throw new Error(`${COMPILED_MAIN} is missing: run \`npm run build\` first`);
    // Retries at a test's pace: the compiled API started by a script that sets it (the API's own is fixed).
    const pace = JSON.stringify({ pollIntervalMs: 50, retryBaseMs: 100, retryMaxDelayMs: 300, timeoutMs: 1000 });
    const child = spawn(process.execPath, [PACED_API_MAIN, pace], {
      env: {
        ...process.env,
        LOG_LEVEL: "info",
        PORT: String(await freePort()),
        DATABASE_URL: harness.database.url,
        RPC_URL: harness.node.rpcUrl,
        DEPLOYMENT_FILE: deploymentFile,
        API_ROLES: "deliver",
        WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 60_000;
    while (!output.includes('"api listening"')) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the API process did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return child;
  }

  function kill(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGKILL");
    });
  }

  /** Each message id answered 2xx, with how many times. */
  function okCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const message of receiver.delivered()) counts.set(message.id, (counts.get(message.id) ?? 0) + 1);
    return counts;
  }

  async function deliveryStates(): Promise<Array<{ status: string; count: number }>> {
    return harnessQuery(`SELECT status, count(*)::int AS count FROM webhook_delivery GROUP BY status ORDER BY status`);
  }

  async function harnessQuery(sql: string) {
    const { Client } = await import("pg");
    const client = new Client({ connectionString: harness.database.url });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    harness = await startApiHarness("webhooks_replicas", {
      webhooks: { ...fastWebhooks({}), deliveryEnabled: false },
    });
    key = await harness.apiKey(await harness.world.merchant.getAddress());
    deploymentFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "raffle-webhooks-")), "deployment.json");
    fs.writeFileSync(deploymentFile, JSON.stringify(harness.world.deployment));
    await receiver.start();
    const { body } = await harness.http
      .post("/webhooks")
      .set({ Authorization: `Bearer ${key}` })
      .send({ url: receiver.url })
      .expect(201);
    receiver.secrets = [body.secret];
  }, 120_000);

  afterAll(async () => {
    for (const child of children) await kill(child);
    await receiver.close();
    await harness?.close();
  });

  it("an API killed (SIGKILL) with messages pending delivers them after a restart, none twice to a receiver that answered 2xx", async () => {
    const { world } = harness;
    // Purchases are refused (503) until the restart; the rest is accepted.
    let accepting = false;
    receiver.respond = (body) => (body.type === "ticket.purchased" && !accepting ? 503 : 200);
    const first = await startDeliverer();
    const raffle = await deployTestRaffle(world, "ERC20");
    await indexedRaffleId(harness, key, raffle.raffle);
    for (const [i, player] of world.players.slice(0, 3).entries()) await buyTicket(world, raffle, player, BigInt(i + 1));
    await eventually(async () => {
      expect(receiver.delivered().map((message) => message.body.type)).toEqual(["raffle.deployed", "round.started"]);
      expect(receiver.received.filter((message) => message.status === 503).length).toBeGreaterThanOrEqual(2);
    }, 30_000);

    await kill(first);
    accepting = true;
    await startDeliverer();
    await eventually(async () => expect(receiver.delivered().filter((message) => message.body.type === "ticket.purchased")).toHaveLength(3), 30_000);
    expect([...okCounts().values()].every((count) => count === 1)).toBe(true);
    expect(receiver.received.every((message: ReceivedMessage) => message.verified)).toBe(true);
    // A run records its deliveries once it has sent them all: the rows follow the receiver by a moment.
    await eventually(async () => expect(await deliveryStates()).toEqual([{ status: "DELIVERED", count: 5 }]), 10_000);
  }, 90_000);

  it("two API processes deliver each message once", async () => {
    const { world } = harness;
    await startDeliverer();
    const before = receiver.delivered().length;
    const raffle = await deployTestRaffle(world, "NATIVE");
    await indexedRaffleId(harness, key, raffle.raffle);
    for (let i = 0; i < 12; i += 1) await buyTicket(world, raffle, world.players[i % 4], BigInt(100 + i));
    await eventually(async () => expect(receiver.delivered().length - before).toBe(14), 30_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.delivered().length - before).toBe(14);
    expect([...okCounts().values()].every((count) => count === 1)).toBe(true);
    const purchases = receiver
      .delivered()
      .slice(before)
      .filter((message) => message.body.type === "ticket.purchased")
      .map((message) => message.body.data.externalId);
    // One endpoint: chain order, whichever process sent each message.
    expect(purchases).toEqual(Array.from({ length: 12 }, (_, i) => String(100 + i)));
    await eventually(async () => expect(await deliveryStates()).toEqual([{ status: "DELIVERED", count: 19 }]), 10_000);
  }, 90_000);
});
