import type { NestFastifyApplication } from "@nestjs/platform-fastify";
import request from "supertest";
import { Wallet } from "ethers";
import { createSiweMessage } from "viem/siwe";
import { Client } from "pg";
import { localDevPrivateKey } from "@raffle/chain";
import { buyTicket, deployTestRaffle } from "@raffle/chain/testing";
import { startStreamingReplica, type StreamingReplica } from "@raffle/db/testing";
import { startTestStack, type TestStack } from "@raffle/test-stack";
import { eventually } from "@raffle/testing";

import { createApp } from "../../api/src/app/create-app";
import { ApiKeyService } from "../../api/src/app/auth/api-key.service";
import { browserSessions, testConfig } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";

const WEB_ORIGIN = "http://127.0.0.1:5173";

/**
 * Reads from a real PostgreSQL streaming replica (a private primary and hot standby, startStreamingReplica): the index
 * reads go to the replica while it keeps up, to the primary once it lags past the bound or dies (within 5 s, no error
 * after the requests in flight), and back once it has caught up; a sign-in is read from
 * the primary whatever the replica holds.
 */
describe("reads from a streaming replica", () => {
  let pair: StreamingReplica;
  let stack: TestStack;
  let app: NestFastifyApplication;
  let http: ReturnType<typeof request>;
  let key: string;
  let contractId: number;

  beforeAll(async () => {
    process.env.LOG_LEVEL ??= "silent";
    pair = await startStreamingReplica();
    // The stack's database is the pair's primary: close() stops both servers.
    stack = await startTestStack({ label: "read_replica", database: pair.primary });
    const config = testConfig(stack.world, pair.primary, stack.node.rpcUrl, {
      databaseReplicaUrl: pair.replicaUrl,
      // No read cache: each read below is a query, on whichever server the routing picks at that moment.
      readCacheMs: 0,
      player: browserSessions(WEB_ORIGIN),
    });
    app = await createApp(config);
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    http = request(app.getHttpServer());
    key = (await app.get(ApiKeyService).create(await stack.world.merchant.getAddress())).key;
    const raffle = await deployTestRaffle(stack.world, "NATIVE");
    contractId = await indexedRaffleId({ http, world: stack.world }, key, raffle.raffle);
    await buyTicket(stack.world, raffle, stack.world.players[0]);
    await eventually(async () => expect((await currentRound()).ticketCount).toBe(1), 30_000);
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await stack?.close();
    await pair?.stop();
  });

  const auth = () => ({ Authorization: `Bearer ${key}` });

  async function currentRound(): Promise<{ id: number; ticketCount: number }> {
    const { body } = await http.get("/rounds/current").query({ contractId }).set(auth()).expect(200);
    return body;
  }

  async function readsOnReplica(): Promise<number> {
    const { text } = await http.get("/metrics").expect(200);
    return Number(/^raffle_db_reads_on_replica (\S+)$/m.exec(text)![1]);
  }

  async function onPrimary(sql: string, params: unknown[] = []) {
    const client = new Client({ connectionString: pair.primary.url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows;
    } finally {
      await client.end();
    }
  }

  it("reads the index from the replica while it keeps up, from the primary past the 2 s bound, and again once it caught up", async () => {
    await eventually(async () => expect(await readsOnReplica()).toBe(1), 15_000);
    expect((await http.get("/metrics").expect(200)).text).toMatch(/^raffle_db_replica_lag_seconds \d/m);
    const round = await currentRound();
    // The replica stops replaying; the primary then holds a row the replica does not (a marker only this test writes).
    await pair.pauseReplay();
    const written = Date.now();
    await onPrimary(`UPDATE round SET ticket_count = 777 WHERE id = $1`, [round.id]);
    // Within the bound the read still comes from the replica: the old count.
    expect((await currentRound()).ticketCount).toBe(round.ticketCount);
    // Past it, the replica is dropped and the same read answers from the primary.
    await eventually(async () => expect((await currentRound()).ticketCount).toBe(777), 10_000, 50);
    const movedAfterMs = Date.now() - written;
    expect(movedAfterMs).toBeLessThan(5_000);
    expect(await readsOnReplica()).toBe(0);
    // Taken back only once it has replayed what the primary had: the count never goes back to the old one.
    await pair.resumeReplay();
    await eventually(
      async () => {
        expect((await currentRound()).ticketCount).toBe(777);
        expect(await readsOnReplica()).toBe(1);
      },
      15_000,
      50,
    );
    await onPrimary(`UPDATE round SET ticket_count = $2 WHERE id = $1`, [round.id, round.ticketCount]);
  }, 60_000);

  it("drops a replica that dies within 5 s, with no error after the requests in flight, and takes it back once it is up", async () => {
    await eventually(async () => expect(await readsOnReplica()).toBe(1), 15_000);
    const answers: Array<{ at: number; status: number }> = [];
    let killedAt = 0;
    let reading = true;
    const load = (async () => {
      while (reading) {
        const response = await http.get("/rounds/current").query({ contractId }).set(auth());
        answers.push({ at: Date.now(), status: response.status });
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 500));
    pair.killReplica();
    killedAt = Date.now();
    await eventually(async () => expect(await readsOnReplica()).toBe(0), 5_000, 50);
    const droppedAfterMs = Date.now() - killedAt;
    // Dead, it grows older by the time it has not answered: the lag alert fires for it too.
    await eventually(
      async () => expect(Number(/^raffle_db_replica_lag_seconds (\S+)$/m.exec((await http.get("/metrics")).text)![1])).toBeGreaterThan(2),
      5_000,
      100,
    );
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, killedAt + 6_000 - Date.now())));
    reading = false;
    await load;
    const failed = answers.filter((answer) => answer.status !== 200);
    expect(droppedAfterMs).toBeLessThan(5_000);
    // Only requests in flight when it died may fail, as a 503 (database unavailable), never a 500.
    expect(failed.every((answer) => answer.status === 503 && answer.at - killedAt < 5_000)).toBe(true);
    expect(answers.filter((answer) => answer.at > killedAt + 1_000).length).toBeGreaterThan(20);
    expect(answers.filter((answer) => answer.at > killedAt + 1_000 && answer.status !== 200)).toEqual([]);

    await pair.startReplica();
    await eventually(async () => expect(await readsOnReplica()).toBe(1), 20_000, 100);
    expect((await currentRound()).ticketCount).toBe(1);
  }, 90_000);

  it("reads a sign-in from the primary, whatever the replica holds", async () => {
    await eventually(async () => expect(await readsOnReplica()).toBe(1), 20_000);
    await pair.pauseReplay();
    try {
      const player = new Wallet(localDevPrivateKey(6));
      const { body: nonce } = await http.post("/player/siwe/nonce").expect(200);
      const now = Date.now();
      const message = createSiweMessage({
        domain: "127.0.0.1:5173",
        uri: WEB_ORIGIN,
        address: player.address as `0x${string}`,
        chainId: stack.world.deployment.chainId,
        version: "1",
        nonce: nonce.nonce,
        issuedAt: new Date(now),
        expirationTime: new Date(now + 30 * 60_000),
      });
      const { body } = await http
        .post("/player/siwe/verify")
        .send({ message, signature: await player.signMessage(message) })
        .expect(200);
      const session = await http.get("/player/session").set({ Authorization: `Bearer ${body.token}` });
      expect(session.status).toBe(200);
      expect((await onPrimary(`SELECT count(*)::int AS count FROM player_session WHERE address = $1`, [player.address]))[0].count).toBe(1);
      // The replica has not replayed the sign-in: a session read from it would have been refused.
      const replica = new Client({ connectionString: pair.replicaUrl });
      await replica.connect();
      try {
        const sessions = (table: Client) => table.query(`SELECT count(*)::int AS count FROM player_session WHERE address = $1`, [player.address]);
        expect((await sessions(replica)).rows[0].count).toBe(0);
      } finally {
        await replica.end();
      }
    } finally {
      await pair.resumeReplay();
    }
  }, 60_000);
});
