import { Wallet } from "ethers";
import { createSiweMessage } from "viem/siwe";
import { RaffleFactory__factory, Raffle__factory, localDevPrivateKey } from "@raffle/chain";
import { MERCHANT_CONSOLE_SIWE_RESOURCE } from "@raffle/db";
import { buyTicket, deployTestRaffle, endAndDraw, type TestRaffle } from "@raffle/chain/testing";
import { eventually } from "@raffle/testing";

import { createOpenApiDocument } from "../../api/src/openapi/openapi-document";
import { browserSessions, fastWebhooks, startApiHarness, type ApiHarness } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";
import { expectProblem, fieldsOf } from "./support/problem";
import { WebhookReceiver } from "./support/webhook-receiver";

const WEB_ORIGIN = "http://127.0.0.1:5173";
type Method = "get" | "post" | "put" | "patch" | "delete";

/**
 * The merchant console's API (issue #30) through the real API, chain and PostgreSQL: the merchant's wallet sign-in,
 * its self-service routes, and two merchants who never see or change each other's raffles, keys, webhooks or figures.
 */
describe("the merchant console's API", () => {
  let harness: ApiHarness;
  const receiver = new WebhookReceiver();
  // Hardhat's account #2 is TestWorld's merchant; #3 becomes a second merchant; #5 is a player only.
  const alice = new Wallet(localDevPrivateKey(2));
  const bob = new Wallet(localDevPrivateKey(3));
  const player = new Wallet(localDevPrivateKey(5));
  let aliceRaffle: { deployed: TestRaffle; id: number };
  let bobRaffle: { deployed: TestRaffle; id: number };
  let aliceSession: string;
  let bobSession: string;
  let aliceKey: string;
  let bobKey: string;

  beforeAll(async () => {
    harness = await startApiHarness("console", {
      player: browserSessions(WEB_ORIGIN),
      webhooks: fastWebhooks({ pollIntervalMs: 50, timeoutMs: 2000 }),
    });
    await receiver.start();
    const factory = RaffleFactory__factory.connect(harness.world.deployment.raffleFactory, harness.world.admin);
    await (await factory.grantRole(await factory.MERCHANT_ROLE(), bob.address)).wait();
    aliceKey = await harness.apiKey(alice.address);
    bobKey = await harness.apiKey(bob.address);
    const aliceDeployed = await deployTestRaffle(harness.world, "NATIVE", 100n);
    aliceRaffle = { deployed: aliceDeployed, id: await indexedRaffleId(harness, aliceKey, aliceDeployed.raffle) };
    const bobDeployed = await deployTestRaffle({ ...harness.world, merchant: bob.connect(harness.world.provider) }, "ERC20", 100n);
    bobRaffle = { deployed: bobDeployed, id: await indexedRaffleId(harness, bobKey, bobDeployed.raffle) };
    aliceSession = await signIn(alice);
    bobSession = await signIn(bob);
  });

  afterAll(async () => {
    await receiver.close();
    await harness?.close();
  });

  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  /** A message as the console writes it (its nonce, Resources entry and statement), or as the player pages do. */
  async function siweMessage(wallet: Wallet, expiresInMs = 30 * 60_000, kind: "merchant" | "player" = "merchant", nonceOf = kind): Promise<string> {
    const { body } = await harness.http.post(`/${nonceOf}/siwe/nonce`).expect(200);
    const now = Date.now();
    return createSiweMessage({
      domain: "127.0.0.1:5173",
      uri: WEB_ORIGIN,
      address: wallet.address as `0x${string}`,
      chainId: harness.world.deployment.chainId,
      version: "1",
      nonce: body.nonce,
      issuedAt: new Date(now),
      expirationTime: new Date(now + expiresInMs),
      ...(kind === "merchant"
        ? { statement: "Sign in to the merchant console.", resources: [MERCHANT_CONSOLE_SIWE_RESOURCE] }
        : { statement: "Sign in to buy raffle tickets." }),
    });
  }

  async function signIn(wallet: Wallet, expiresInMs?: number): Promise<string> {
    const message = await siweMessage(wallet, expiresInMs);
    const { body } = await harness.http
      .post("/merchant/siwe/verify")
      .send({ message, signature: await wallet.signMessage(message) })
      .expect(200);
    return body.token;
  }

  it("signs a merchant in with its wallet; a player's wallet or session is not a merchant", async () => {
    const { body } = await harness.http.get("/merchant/session").set(auth(aliceSession)).expect(200);
    expect(body).toMatchObject({ address: alice.address, chainId: harness.world.deployment.chainId });
    expect(aliceSession).toMatch(/^ms_/);

    // A wallet the admin just granted MERCHANT_ROLE, with nothing deployed yet, signs in and starts from nothing.
    const carol = new Wallet(localDevPrivateKey(4));
    const factory = RaffleFactory__factory.connect(harness.world.deployment.raffleFactory, harness.world.admin);
    await (await factory.grantRole(await factory.MERCHANT_ROLE(), carol.address)).wait();
    const carolSession = await signIn(carol);
    expect((await harness.http.get("/raffle/contracts").set(auth(carolSession)).expect(200)).body.rows).toEqual([]);
    expect((await harness.http.get("/merchant/api-keys").set(auth(carolSession)).expect(200)).body.rows).toEqual([]);

    const message = await siweMessage(player);
    expectProblem(
      await harness.http.post("/merchant/siwe/verify").send({ message, signature: await player.signMessage(message) }),
      403,
      "notAMerchant",
    );
    const playerMessage = await siweMessage(player, undefined, "player");
    const { body: playerSession } = await harness.http
      .post("/player/siwe/verify")
      .send({ message: playerMessage, signature: await player.signMessage(playerMessage) })
      .expect(200);
    expectProblem(await harness.http.get("/merchant/session").set(auth(playerSession.token)), 401, "merchantSessionRequired");
    expectProblem(await harness.http.get("/merchant/api-keys").set(auth(playerSession.token)), 401, "merchantSessionRequired");
    expectProblem(await harness.http.get("/raffle/contracts").set(auth(playerSession.token)), 401, "unauthorized");
    // Nor is a merchant's session a player's, nor does it open the routes that stay API-key only.
    expectProblem(await harness.http.get("/player/tickets").set(auth(aliceSession)), 401, "sessionRequired");
    expectProblem(
      await harness.http.post("/raffle/ticket/sign").set(auth(aliceSession)).send({ account: player.address, contractId: aliceRaffle.id }),
      401,
      "unauthorized",
    );
    // An API key cannot manage keys.
    expectProblem(await harness.http.get("/merchant/api-keys").set(auth(aliceKey)), 401, "merchantSessionRequired");
    expectProblem(await harness.http.get("/merchant/api-keys"), 401, "merchantSessionRequired");
  });

  it("opens a console session only for a console message with a console nonce, and a player session never with either", async () => {
    const verify = async (route: "merchant" | "player", message: string) =>
      harness.http.post(`/${route}/siwe/verify`).send({ message, signature: await alice.signMessage(message) });
    // What the merchant's wallet signed to buy tickets (player statement and nonce) does not open the console.
    expectProblem(await verify("merchant", await siweMessage(alice, undefined, "player")), 400, "siweMessageInvalid");
    // Nor a console message quoting a player nonce, nor a player message quoting a console nonce.
    expectProblem(await verify("merchant", await siweMessage(alice, undefined, "merchant", "player")), 401, "siweNonceInvalid");
    expectProblem(await verify("player", await siweMessage(alice, undefined, "player", "merchant")), 401, "siweNonceInvalid");
    // A console message does not open a player session either.
    expectProblem(await verify("player", await siweMessage(alice)), 400, "siweMessageInvalid");
    // Without a statement, the wallet's prompt never said "console": refused even with the console's entry.
    const bare = (await siweMessage(alice)).replace("Sign in to the merchant console.", "");
    expectProblem(await verify("merchant", bare), 400, "siweMessageInvalid");
    // A nonce the wrong route refused is still good where it was issued: refusing it consumed nothing.
    const { body: nonce } = await harness.http.post("/player/siwe/nonce").expect(200);
    const consoleText = (await siweMessage(alice)).replace(/Nonce: \w+/, `Nonce: ${nonce.nonce}`);
    expectProblem(await verify("merchant", consoleText), 401, "siweNonceInvalid");
    const playerText = (await siweMessage(alice, undefined, "player")).replace(/Nonce: \w+/, `Nonce: ${nonce.nonce}`);
    expect((await verify("player", playerText)).status).toBe(200);
    expect((await verify("merchant", await siweMessage(alice))).body.token).toMatch(/^ms_/);
  });

  it("lets no cache keep an answer that carries a secret or depends on the caller (Cache-Control: no-store)", async () => {
    const noStore = (response: { headers: Record<string, string> }) => expect(response.headers["cache-control"]).toBe("no-store");
    const message = await siweMessage(alice);
    noStore(
      await harness.http
        .post("/merchant/siwe/verify")
        .send({ message, signature: await alice.signMessage(message) })
        .expect(200),
    );
    noStore(await harness.http.post("/merchant/siwe/nonce").expect(200));
    const created = await harness.http.post("/merchant/api-keys").set(auth(aliceSession)).send({ label: "cache probe" }).expect(201);
    noStore(created);
    const webhook = await harness.http.post("/webhooks").set(auth(aliceSession)).send({ url: receiver.url }).expect(201);
    noStore(webhook);
    noStore(await harness.http.post(`/webhooks/${webhook.body.id}/secret`).set(auth(aliceSession)).expect(200));
    noStore(await harness.http.get("/merchant/session").set(auth(aliceSession)).expect(200));
    // The routes served outside Nest's pipeline too, and refusals.
    noStore(await harness.http.get("/raffle/contracts").set(auth(created.body.key)).expect(200));
    noStore(
      await harness.http.post("/raffle/ticket/sign").set(auth(aliceKey)).send({ account: player.address, contractId: aliceRaffle.id }).expect(200),
    );
    noStore(await harness.http.get("/raffle/contracts").set(auth("rk_000000000000_wrong")).expect(401));
    await harness.http.delete(`/webhooks/${webhook.body.id}`).set(auth(aliceSession)).expect(200);
    await harness.http.delete(`/merchant/api-keys/${created.body.id}`).set(auth(aliceSession)).expect(200);
    // What anyone may read, the same for everyone, stays cacheable; every answer refuses to be framed or sniffed.
    const open = await harness.http.get("/player/raffles").expect(200);
    expect(open.headers["cache-control"]).toBeUndefined();
    expect(open.headers).toMatchObject({ "x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" });
  });

  it("ends a session at its expiry and at logout", async () => {
    const short = await signIn(alice, 2_000);
    await harness.http.get("/raffle/contracts").set(auth(short)).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expectProblem(await harness.http.get("/raffle/contracts").set(auth(short)), 401, "unauthorized");
    expectProblem(await harness.http.get("/merchant/session").set(auth(short)), 401, "merchantSessionRequired");

    const other = await signIn(alice);
    await harness.http.post("/merchant/logout").set(auth(other)).expect(204);
    expectProblem(await harness.http.get("/merchant/session").set(auth(other)), 401, "merchantSessionRequired");
  });

  it("creates an API key shown once, lists it with its last use and who made it, and revokes it", async () => {
    const { body: created } = await harness.http.post("/merchant/api-keys").set(auth(aliceSession)).send({ label: "game server" }).expect(201);
    expect(created).toMatchObject({
      label: "game server",
      lastUsedAt: null,
      lastUsedUserAgent: null,
      lastUsedIp: null,
      revokedAt: null,
      key: expect.stringMatching(/^rk_[0-9a-f]{12}_/),
    });
    expect(created.key.startsWith(`rk_${created.prefix}_`)).toBe(true);
    // The caller's User-Agent carries a tab and C1 control characters (a header is Latin-1: no other control gets through).
    await harness.http.get("/raffle/contracts").set(auth(created.key)).set("User-Agent", "game-server/3.2\t\u0085\u009btxet").expect(200);
    const listed = await eventually(async () => {
      const { body } = await harness.http.get("/merchant/api-keys").set(auth(aliceSession)).expect(200);
      const row = body.rows.find((key: { id: number }) => key.id === created.id);
      if (!row.lastUsedAt) throw new Error("last use not recorded yet");
      return row;
    });
    expect(listed).not.toHaveProperty("key");
    expect(JSON.stringify(listed)).not.toContain(created.key);
    expect({ userAgent: listed.lastUsedUserAgent, ip: listed.lastUsedIp }).toEqual({
      userAgent: "game-server/3.2 txet",
      ip: expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$|^::1$/),
    });

    const { body: revoked } = await harness.http.delete(`/merchant/api-keys/${created.id}`).set(auth(aliceSession)).expect(200);
    expect(revoked.revokedAt).not.toBeNull();
    expectProblem(await harness.http.get("/raffle/contracts").set(auth(created.key)), 401, "unauthorized");
    expectProblem(await harness.http.post("/merchant/api-keys").set(auth(aliceSession)).send({ label: 7 }), 400, "validationFailed");
    expectProblem(await harness.http.delete("/merchant/api-keys/abc").set(auth(aliceSession)), 404, "apiKeyNotFound");
  });

  it("rolls a key: the new one works at once, the old one until its grace period ends, then its refused use is listed", async () => {
    const list = async () =>
      (await harness.http.get("/merchant/api-keys").set(auth(aliceSession)).expect(200)).body.rows as Array<Record<string, unknown>>;
    const { body: old } = await harness.http.post("/merchant/api-keys").set(auth(aliceSession)).send({ label: "worker" }).expect(201);
    for (const graceSeconds of [-1, 604_801, 1.5, "60", null]) {
      const refused = expectProblem(
        await harness.http.post(`/merchant/api-keys/${old.id}/roll`).set(auth(aliceSession)).send({ graceSeconds }),
        400,
        "validationFailed",
      );
      expect(fieldsOf(refused)).toEqual(["graceSeconds"]);
    }
    const rolled = await harness.http.post(`/merchant/api-keys/${old.id}/roll`).set(auth(aliceSession)).send({ graceSeconds: 3 }).expect(201);
    expect(rolled.headers["cache-control"]).toBe("no-store");
    const { created, rolled: previous } = rolled.body;
    expect(created).toMatchObject({ label: "worker", revokedAt: null, key: expect.stringMatching(`^rk_${created.prefix}_`) });
    expect(new Date(previous.revokedAt).getTime()).toBeGreaterThan(Date.now());
    await harness.http.get("/raffle/contracts").set(auth(created.key)).expect(200);
    await harness.http.get("/raffle/contracts").set(auth(old.key)).expect(200);
    // Rolled twice, two successors would live on: refused, as is another merchant's key.
    expectProblem(
      await harness.http.post(`/merchant/api-keys/${old.id}/roll`).set(auth(aliceSession)).send({ graceSeconds: 0 }),
      409,
      "apiKeyRevoked",
    );
    expectProblem(
      await harness.http.post(`/merchant/api-keys/${created.id}/roll`).set(auth(bobSession)).send({ graceSeconds: 0 }),
      404,
      "apiKeyNotFound",
    );
    expect((await list()).find((key) => key.id === old.id)).toMatchObject({ lastRejectedAt: null, lastUsedAt: expect.any(String) });

    // The grace period ends: the old key is refused (even from the verified-key cache), and its refused use is listed.
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    expectProblem(await harness.http.get("/raffle/contracts").set(auth(old.key)), 401, "unauthorized");
    const stale = await eventually(async () => {
      const row = (await list()).find((key) => key.id === old.id)!;
      if (!row.lastRejectedAt) throw new Error("refused use not recorded yet");
      return row;
    });
    expect(Date.now() - new Date(stale.lastRejectedAt as string).getTime()).toBeLessThan(60_000);
    // A guessed secret behind the known prefix records nothing.
    const guessed = await harness.http.post(`/merchant/api-keys/${created.id}/roll`).set(auth(aliceSession)).send({ graceSeconds: 0 }).expect(201);
    await harness.http.delete(`/merchant/api-keys/${guessed.body.created.id}`).set(auth(aliceSession)).expect(200);
    expectProblem(await harness.http.get("/raffle/contracts").set(auth(`rk_${created.prefix}_${"A".repeat(43)}`)), 401, "unauthorized");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await list()).find((key) => key.id === created.id)?.lastRejectedAt).toBeNull();
  });

  it("saves raffle settings, validates the schedule and shows its next five runs", async () => {
    const { body: preview } = await harness.http
      .post("/raffle/schedule/preview")
      .set(auth(aliceSession))
      .send({ schedule: "30 2 * * *" })
      .expect(200);
    expect(preview.nextRuns).toHaveLength(5);
    const runs = preview.nextRuns.map((run: string) => new Date(run));
    for (const run of runs) expect({ hour: run.getUTCHours(), minute: run.getUTCMinutes() }).toEqual({ hour: 2, minute: 30 });
    expect(runs[1].getTime() - runs[0].getTime()).toBe(86_400_000);
    for (const schedule of ["not a cron", "61 * * * *", "", 5]) {
      expectProblem(await harness.http.post("/raffle/schedule/preview").set(auth(aliceSession)).send({ schedule }), 400, "validationFailed");
    }

    const changes = {
      title: "Friday raffle",
      description: "One winner an hour.",
      imageUrl: "https://cdn.example.com/r.png",
      schedule: "30 2 * * *",
      publicSale: true,
    };
    const { body } = await harness.http.patch(`/raffle/contracts/${aliceRaffle.id}`).set(auth(aliceSession)).send(changes).expect(200);
    expect(body).toMatchObject({
      title: "Friday raffle",
      description: "One winner an hour.",
      imageUrl: "https://cdn.example.com/r.png",
      publicSale: true,
    });
    expect(body.parameters).toMatchObject({ schedule: "30 2 * * *", roundId: 1, commission: "1000" });
    const { body: listed } = await eventually(async () => {
      const answer = await harness.http.get("/raffle/contracts").set(auth(aliceKey)).expect(200);
      if (answer.body.rows[0].parameters.schedule !== "30 2 * * *") throw new Error("cached list");
      return answer;
    });
    expect(listed.rows.map((row: { id: number }) => row.id)).toEqual([aliceRaffle.id]);
    expectProblem(
      await harness.http.patch(`/raffle/contracts/${aliceRaffle.id}`).set(auth(aliceSession)).send({ schedule: "every hour" }),
      400,
      "validationFailed",
    );
    expectProblem(
      await harness.http.patch(`/raffle/contracts/${aliceRaffle.id}`).set(auth(aliceSession)).send({ imageUrl: "javascript:alert(1)" }),
      400,
      "validationFailed",
    );
    // The same route with an API key: the same rules.
    await harness.http.patch(`/raffle/contracts/${aliceRaffle.id}`).set(auth(aliceKey)).send({ publicSale: false }).expect(200);
  });

  it("stores a description only as plain text or a spec 2.9 document that readers can rely on, with the faulty part named", async () => {
    const patch = (description: string) => harness.http.patch(`/raffle/contracts/${aliceRaffle.id}`).set(auth(aliceSession)).send({ description });
    const block = (fields: Record<string, unknown>) => ({
      key: "b0",
      text: "Hello",
      type: "unstyled",
      depth: 0,
      inlineStyleRanges: [],
      entityRanges: [],
      data: {},
      ...fields,
    });
    const documentOf = (...blocks: unknown[]) => JSON.stringify({ blocks, entityMap: {} });
    const good = documentOf(block({}), block({ key: "b1", text: "Bold", inlineStyleRanges: [{ offset: 0, length: 4, style: "BOLD" }] }));
    expect((await patch(good).expect(200)).body.description).toBe(good);
    await patch("Just words, {not JSON} [1, 2]").expect(200);
    const refused: Array<[string, string]> = [
      [documentOf(block({}), block({}), block({ text: { toString: "x" } })), "description.blocks[2].text"],
      [documentOf(block({ text: 42 })), "description.blocks[0].text"],
      [documentOf(block({ text: undefined })), "description.blocks[0].text"],
      [documentOf(block({ text: "\u0000" })), "description.blocks[0].text"],
      [documentOf(block({ type: "script" })), "description.blocks[0].type"],
      [documentOf(block({ depth: 1e9 })), "description.blocks[0].depth"],
      [documentOf(block({ inlineStyleRanges: [{ offset: -1, length: 1, style: "BOLD" }] })), "description.blocks[0].inlineStyleRanges[0].offset"],
      [documentOf(block({ inlineStyleRanges: [{ offset: 0, length: 1, style: "BLINK" }] })), "description.blocks[0].inlineStyleRanges[0].style"],
      [documentOf(block({ entityRanges: "all" })), "description.blocks[0].entityRanges"],
      [documentOf(block({ data: [] })), "description.blocks[0].data"],
      [documentOf(block({ onclick: "alert(1)" })), "description.blocks[0]"],
      [documentOf("text"), "description.blocks[0]"],
      [documentOf(...Array.from({ length: 101 }, (_, index) => ({ text: String(index) }))), "description.blocks"],
      [JSON.stringify({ blocks: "Hello", entityMap: {} }), "description.blocks"],
      [JSON.stringify({ blocks: [], entityMap: [] }), "description.entityMap"],
      [JSON.stringify({ not: "a document" }), "description"],
    ];
    for (const [description, field] of refused) {
      const problem = expectProblem(await patch(description), 400, "validationFailed");
      expect({ description, fields: fieldsOf(problem) }).toEqual({ description, fields: [field] });
    }
    expect((await harness.http.get(`/raffle/contracts/${aliceRaffle.id}`).set(auth(aliceSession)).expect(200)).body.description).toBe(
      "Just words, {not JSON} [1, 2]",
    );
  });

  it("refuses invisible and direction-changing characters in every merchant-written short text, naming the field", async () => {
    const hostile = [
      "\u202Eelffar yadirF", // right-to-left override: reads as another title
      ...["\u202A", "\u202B", "\u202C", "\u202D", "\u2066", "\u2067", "\u2068", "\u2069", "\u061C"],
      ...["\u200B", "\u200C", "\u200D", "\u200E", "\u200F", "\u2060", "\u2063", "\u2064", "\uFEFF"],
      "lone \uD800 surrogate",
      "reversed \uDC00 pair",
    ].map((text) => JSON.parse(`"Friday ${text}"`) as string);
    const routes: Array<[string, (text: string) => import("supertest").Test]> = [
      ["title", (title) => harness.http.patch(`/raffle/contracts/${aliceRaffle.id}`).set(auth(aliceSession)).send({ title })],
      [
        "imageUrl",
        (text) =>
          harness.http
            .patch(`/raffle/contracts/${aliceRaffle.id}`)
            .set(auth(aliceSession))
            .send({ imageUrl: `https://cdn.example.com/${text.replaceAll(" ", "-")}` }),
      ],
      ["label", (label) => harness.http.post("/merchant/api-keys").set(auth(aliceSession)).send({ label })],
      ["description", (description) => harness.http.post("/webhooks").set(auth(aliceSession)).send({ url: receiver.url, description })],
    ];
    for (const [field, send] of routes) {
      for (const text of hostile) expect(fieldsOf(expectProblem(await send(text), 400, "validationFailed"))).toEqual([field]);
    }
    // Text in any script, emoji (a surrogate pair) and tabs and line breaks where they were accepted stay fine.
    const fine = "Rifa del viernes — جائزة 🎉";
    const send = Object.fromEntries(routes);
    expect((await send.title(fine).expect(200)).body.title).toBe(fine);
    await send.imageUrl("r.png").expect(200);
    const key = (await send.label(fine).expect(201)).body;
    await harness.http.delete(`/merchant/api-keys/${key.id}`).set(auth(aliceSession)).expect(200);
    const hook = (await send.description(`${fine}\n\tline two`).expect(201)).body;
    await harness.http.delete(`/webhooks/${hook.id}`).set(auth(aliceSession)).expect(200);
    await send.title("Friday raffle").expect(200);
  });

  it("counts tickets and revenue per day and token from the index, and shows the round's winner", async () => {
    for (const buyer of harness.world.players.slice(0, 2)) await buyTicket(harness.world, aliceRaffle.deployed, buyer);
    const today = new Date().toISOString().slice(0, 10);
    const sales = await eventually(async () => {
      const { body } = await harness.http.get("/raffle/sales").query({ contractId: aliceRaffle.id }).set(auth(aliceSession)).expect(200);
      if (body.rows[0]?.tickets !== 2) throw new Error("tickets not indexed yet");
      return body.rows;
    });
    expect(sales).toEqual([
      {
        day: today,
        chainId: harness.world.deployment.chainId,
        contractId: aliceRaffle.id,
        token: { tokenType: "NATIVE", token: "0x0000000000000000000000000000000000000000", symbol: "ETH", decimals: 18 },
        tickets: 2,
        revenue: (2n * BigInt(aliceRaffle.deployed.price.amount)).toString(),
      },
    ]);
    expectProblem(await harness.http.get("/raffle/sales").query({ days: 0 }).set(auth(aliceSession)), 400, "validationFailed");
    expectProblem(await harness.http.get("/raffle/sales").query({ chainId: 999 }).set(auth(aliceSession)), 422, "chainNotServed");

    await endAndDraw(harness.world, aliceRaffle.deployed);
    const [round] = await eventually(async () => {
      const { body } = await harness.http.get(`/raffle/contracts/${aliceRaffle.id}/rounds`).set(auth(aliceSession)).expect(200);
      if (body.rows[0].winners.length === 0) throw new Error("draw not indexed yet");
      return body.rows;
    });
    const players = await Promise.all(harness.world.players.slice(0, 2).map((signer) => signer.getAddress()));
    expect(round.rules).toEqual({ prizeShares: [10000], minTickets: 0, maxTicketsPerWallet: 0, bundles: [] });
    expect(round).toMatchObject({
      roundId: "1",
      status: "DRAWN",
      ticketCount: 2,
      price: { tokenType: "NATIVE", amount: aliceRaffle.deployed.price.amount.toString() },
    });
    expect(players).toContain(round.winners[0].account);
    // 10% commission: the gross share is the whole pot, the prize 90% of it.
    expect(round.winners[0]).toMatchObject({
      grossShare: (2n * BigInt(aliceRaffle.deployed.price.amount)).toString(),
      prize: ((2n * BigInt(aliceRaffle.deployed.price.amount) * 9n) / 10n).toString(),
      claimStatus: "UNCLAIMED",
    });
    expect(new Date(round.winners[0].releasableAt).getTime()).toBeGreaterThan(Date.now());
  });

  it("shows per chain the active rounds and what needs attention (a paused raffle)", async () => {
    const { body: before } = await harness.http.get("/merchant/overview").set(auth(bobSession)).expect(200);
    expect(before.chains).toEqual([{ chainId: harness.world.deployment.chainId, raffles: 1, activeRounds: 1, attention: [] }]);
    await (await Raffle__factory.connect(bobRaffle.deployed.raffle, bob.connect(harness.world.provider)).pause()).wait();
    const after = await eventually(async () => {
      const { body } = await harness.http.get("/merchant/overview").set(auth(bobSession)).expect(200);
      if (body.chains[0].attention.length === 0) throw new Error("pause not indexed yet");
      return body.chains[0];
    });
    expect(after).toMatchObject({ raffles: 1, activeRounds: 0, attention: [{ kind: "RAFFLE_PAUSED", contractId: bobRaffle.id }] });
  });

  it("sends a test webhook, signed, and logs its delivery with its latency", async () => {
    const { body: webhook } = await harness.http.post("/webhooks").set(auth(aliceSession)).send({ url: receiver.url }).expect(201);
    receiver.secrets = [webhook.secret];
    const { body: delivery } = await harness.http.post(`/webhooks/${webhook.id}/test`).set(auth(aliceSession)).expect(200);
    expect(delivery).toMatchObject({ type: "webhook.test", status: "DELIVERED", attempts: 1, lastStatusCode: 200, latencyMs: expect.any(Number) });
    const received = receiver.delivered().find((message) => message.body.type === "webhook.test");
    expect(received).toMatchObject({ verified: true, body: { id: delivery.messageId, data: { test: true } } });
    const { body: log } = await harness.http.get(`/webhooks/${webhook.id}/deliveries`).set(auth(aliceSession)).expect(200);
    expect(log.rows.find((row: { id: string }) => row.id === delivery.id)).toMatchObject({ status: "DELIVERED", latencyMs: delivery.latencyMs });
  });

  it("never lets one merchant see or change another's raffles, keys, webhooks or figures, over every console route", async () => {
    const { body: aliceWebhooks } = await harness.http.get("/webhooks").set(auth(aliceSession)).expect(200);
    const hook = aliceWebhooks.rows[0].id as number;
    const { body: aliceDeliveries } = await harness.http.get(`/webhooks/${hook}/deliveries`).set(auth(aliceSession)).expect(200);
    const delivery = aliceDeliveries.rows[0].id as string;
    const { body: aliceKeys } = await harness.http.get("/merchant/api-keys").set(auth(aliceSession)).expect(200);
    const aliceKeyId = aliceKeys.rows[0].id as number;
    const { body: aliceRounds } = await harness.http.get("/rounds").query({ contractId: aliceRaffle.id }).set(auth(aliceSession)).expect(200);
    const aliceRound = aliceRounds.rows[0].id as number;

    const visited = new Set<string>();
    const call = (method: Method, template: string, path = template) => {
      visited.add(`${method.toUpperCase()} ${template}`);
      return (token: string) => harness.http[method](path).set(auth(token));
    };
    const a = aliceRaffle.id;
    // Bob, with his session and then with his API key where keys are accepted, on everything of Alice's.
    for (const token of [bobSession, bobKey]) {
      const keyOnly = token === bobKey;
      const listed = (await call("get", "/raffle/contracts")(token).expect(200)).body.rows.map((row: { id: number }) => row.id);
      expect(listed).toEqual([bobRaffle.id]);
      expectProblem(await call("get", "/raffle/contracts/{id}", `/raffle/contracts/${a}`)(token), 404, "contractNotFound");
      expectProblem(await call("patch", "/raffle/contracts/{id}", `/raffle/contracts/${a}`)(token).send({ title: "mine" }), 404, "contractNotFound");
      expectProblem(
        await call("put", "/raffle/contracts/{id}/public-sale", `/raffle/contracts/${a}/public-sale`)(token).send({ publicSale: true }),
        404,
        "contractNotFound",
      );
      expectProblem(await call("get", "/raffle/contracts/{id}/rounds", `/raffle/contracts/${a}/rounds`)(token), 404, "contractNotFound");
      expectProblem(await call("get", "/rounds/current", `/rounds/current?contractId=${a}`)(token), 404, "contractNotFound");
      expectProblem(await call("get", "/rounds", `/rounds?contractId=${a}`)(token), 404, "contractNotFound");
      expectProblem(await call("get", "/rounds/{id}", `/rounds/${aliceRound}`)(token), 404, "roundIdNotFound");
      expect((await call("get", "/raffle/sales", `/raffle/sales?contractId=${a}`)(token).expect(200)).body.rows).toEqual([]);
      expect(
        (await call("get", "/raffle/sales")(token).expect(200)).body.rows.every((row: { contractId: number }) => row.contractId === bobRaffle.id),
      ).toBe(true);
      await call("post", "/raffle/schedule/preview")(token).send({ schedule: "0 * * * *" }).expect(200);
      const overview = (await call("get", "/merchant/overview")(token).expect(200)).body.chains[0];
      expect(overview.raffles).toBe(1);
      expect(overview.attention.map((item: { contractId: number }) => item.contractId)).toEqual([bobRaffle.id]);
      // Gasless relaying settings are each merchant's own: Bob's read and write never reach Alice's.
      const aliceGasless = { enabled: true, dailyGasBudgetWei: "7", perPlayerDailyLimit: 3 };
      await harness.http.put("/merchant/gasless").set(auth(aliceSession)).send(aliceGasless).expect(200);
      expect((await call("get", "/merchant/gasless")(token).expect(200)).body.enabled).toBe(false);
      await call("put", "/merchant/gasless")(token).send({ enabled: false, dailyGasBudgetWei: "1", perPlayerDailyLimit: 1 }).expect(200);
      expect((await harness.http.get("/merchant/gasless").set(auth(aliceSession)).expect(200)).body).toMatchObject(aliceGasless);

      expect((await call("get", "/webhooks")(token).expect(200)).body.rows).toEqual([]);
      expectProblem(await call("get", "/webhooks/{id}", `/webhooks/${hook}`)(token), 404, "webhookNotFound");
      expectProblem(await call("delete", "/webhooks/{id}", `/webhooks/${hook}`)(token), 404, "webhookNotFound");
      expectProblem(await call("post", "/webhooks/{id}/secret", `/webhooks/${hook}/secret`)(token), 404, "webhookNotFound");
      expectProblem(await call("get", "/webhooks/{id}/deliveries", `/webhooks/${hook}/deliveries`)(token), 404, "webhookNotFound");
      expectProblem(
        await call("get", "/webhooks/{id}/deliveries/{deliveryId}", `/webhooks/${hook}/deliveries/${delivery}`)(token),
        404,
        "webhookNotFound",
      );
      expectProblem(await call("patch", "/webhooks/{id}", `/webhooks/${hook}`)(token).send({ events: ["round.drawn"] }), 404, "webhookNotFound");
      expectProblem(
        await call("post", "/webhooks/{id}/deliveries/{deliveryId}/retry", `/webhooks/${hook}/deliveries/${delivery}/retry`)(token),
        404,
        "webhookNotFound",
      );
      expectProblem(await call("post", "/webhooks/{id}/test", `/webhooks/${hook}/test`)(token), 404, "webhookNotFound");
      const { body: own } = await call("post", "/webhooks")(token).send({ url: receiver.url }).expect(201);
      await harness.http.delete(`/webhooks/${own.id}`).set(auth(token)).expect(200);

      if (keyOnly) {
        expectProblem(await harness.http.get("/merchant/api-keys").set(auth(token)), 401, "merchantSessionRequired");
        continue;
      }
      const keys = (await call("get", "/merchant/api-keys")(token).expect(200)).body.rows.map((row: { id: number }) => row.id);
      expect(keys).not.toContain(aliceKeyId);
      expectProblem(await call("delete", "/merchant/api-keys/{id}", `/merchant/api-keys/${aliceKeyId}`)(token), 404, "apiKeyNotFound");
      expectProblem(
        await call("post", "/merchant/api-keys/{id}/roll", `/merchant/api-keys/${aliceKeyId}/roll`)(token).send({ graceSeconds: 0 }),
        404,
        "apiKeyNotFound",
      );
      const { body: created } = await call("post", "/merchant/api-keys")(token).send({}).expect(201);
      expect((await harness.http.get("/raffle/contracts").set(auth(created.key)).expect(200)).body.rows.map((row: { id: number }) => row.id)).toEqual(
        [bobRaffle.id],
      );
      expect((await call("get", "/merchant/session")(token).expect(200)).body.address).toBe(bob.address);
    }
    // Alice's things are as they were.
    const { body: aliceHook } = await harness.http.get(`/webhooks/${hook}`).set(auth(aliceSession)).expect(200);
    expect(aliceHook.events).toEqual(aliceWebhooks.rows[0].events);
    // Her own delivery opens to its attempts and payload.
    const { body: detail } = await harness.http.get(`/webhooks/${hook}/deliveries/${delivery}`).set(auth(aliceSession)).expect(200);
    expect(detail).toMatchObject({ id: delivery, payload: { id: aliceDeliveries.rows[0].messageId } });
    expect((await harness.http.get(`/raffle/contracts/${a}`).set(auth(aliceSession)).expect(200)).body.title).toBe("Friday raffle");
    await harness.http.get("/raffle/contracts").set(auth(aliceKey)).expect(200);

    // Every route a console session may call was visited above (logout ends a session: tested on its own).
    const document = createOpenApiDocument(harness.app);
    const sessionRoutes = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { security?: Array<Record<string, string[]>> }>)
        .filter(([, operation]) => operation.security?.some((requirement) => "merchantSession" in requirement))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(sessionRoutes.filter((route) => !visited.has(route) && route !== "POST /merchant/logout")).toEqual([]);
  });
  it("caps a merchant's active API keys at 20, even for creations sent at once, and counts no revoked key", async () => {
    const active = async () =>
      (await harness.http.get("/merchant/api-keys").set(auth(bobSession)).expect(200)).body.rows.filter(
        (key: { revokedAt: string | null }) => !key.revokedAt,
      );
    const create = () => harness.http.post("/merchant/api-keys").set(auth(bobSession)).send({ label: "burst" });
    for (let count = (await active()).length; count < 18; count += 1) await create().expect(201);
    const burst = await Promise.all(Array.from({ length: 5 }, create));
    expect(burst.map((response) => response.status).sort()).toEqual([201, 201, 409, 409, 409]);
    const refused = expectProblem(await create(), 409, "apiKeyLimitReached");
    expect(refused.detail).toContain("20");
    expect(await active()).toHaveLength(20);
    // Another merchant is not held by Bob's count, and a revoked key frees its place.
    await harness.http.post("/merchant/api-keys").set(auth(aliceSession)).send({}).expect(201);
    const [newest] = await active();
    await harness.http.delete(`/merchant/api-keys/${newest.id}`).set(auth(bobSession)).expect(200);
    await create().expect(201);
    // At the cap a key can still be rolled (the rolled key is on its way out), and it holds its place until it stops.
    const [latest] = await active();
    await harness.http.post(`/merchant/api-keys/${latest.id}/roll`).set(auth(bobSession)).send({ graceSeconds: 60 }).expect(201);
    expectProblem(await create(), 409, "apiKeyLimitReached");
  });
});
