import { Injectable, type CallHandler, type CanActivate, type ExecutionContext, type NestInterceptor } from "@nestjs/common";
import type { ApplicationConfig } from "@nestjs/core";
import type { NestFastifyApplication } from "@nestjs/platform-fastify";
import { deployTestRaffle } from "@raffle/chain/testing";

import { ApiKeyGuard } from "../../api/src/app/auth/api-key.guard";
import { createApp } from "../../api/src/app/create-app";
import { DIRECT_ROUTES, serveDirectRoutes } from "../../api/src/app/direct-routes/direct-routes";
import { DirectRouteSkipsNestPart, assertRunsNestPipeline } from "../../api/src/app/direct-routes/nest-pipeline";
import { startApiHarness, type ApiHarness } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";
import { expectProblem, fieldsOf } from "./support/problem";

/**
 * The hot routes served by plain Fastify handlers instead of Nest's pipeline (DIRECT_ROUTES, direct-routes.ts):
 * POST /raffle/ticket/sign and the four hot reads (which send each cached read's JSON as it was serialised once,
 * json-body.ts). Nest never runs its guard for them (their handlers call the guard's check themselves), and the guard,
 * the validation pipe and the problem filter answer as on every route. An application whose Nest pipeline holds a
 * part the table does not run refuses to start. One API for all.
 */
describe("the routes served outside Nest's pipeline", () => {
  let harness: ApiHarness;
  let key: string;
  let contractId: number;
  // Nest calls each guard's canActivate for the routes it serves; these routes' handlers call authorize directly.
  let nestGuard: jest.SpyInstance;
  const auth = () => ({ Authorization: `Bearer ${key}` });

  beforeAll(async () => {
    harness = await startApiHarness("direct_routes");
    key = await harness.apiKey(await harness.world.merchant.getAddress());
    const raffle = await deployTestRaffle(harness.world, "NATIVE", 100n);
    contractId = await indexedRaffleId(harness, key, raffle.raffle);
    nestGuard = jest.spyOn(ApiKeyGuard.prototype, "canActivate");
  });

  afterAll(async () => {
    nestGuard?.mockRestore();
    await harness?.close();
  });

  describe("the sign route", () => {
    const account = () => harness.world.players[0].getAddress();

    it("signs with the guard's caller, echoes the request id, and never goes through Nest's guard (other routes do)", async () => {
      const response = await harness.http
        .post("/raffle/ticket/sign")
        .set({ Authorization: `Bearer ${key}`, "x-request-id": "sign-route-test-1" })
        .send({ account: await account(), contractId });
      expect(response.status).toBe(200);
      expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(response.headers["x-request-id"]).toBe("sign-route-test-1");
      expect(response.body).toMatchObject({
        nonce: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        signature: expect.stringMatching(/^0x[0-9a-f]{130}$/),
      });
      expect(Object.keys(response.body)).toEqual(["nonce", "signature", "expiresAt", "params", "item", "price", "value"]);
      expect(nestGuard).not.toHaveBeenCalled();
      await harness.http
        .get("/webhooks")
        .set({ Authorization: `Bearer ${key}` })
        .expect(200);
      expect(nestGuard).toHaveBeenCalledTimes(1);
      nestGuard.mockClear();
    });

    it("refuses without a key, with a console session token and with a bad key, as the guard does on every route", async () => {
      const body = { account: await account(), contractId };
      expectProblem(await harness.http.post("/raffle/ticket/sign").send(body), 401, "unauthorized");
      expectProblem(await harness.http.post("/raffle/ticket/sign").set({ Authorization: "Bearer ms_notasession" }).send(body), 401, "unauthorized");
      expectProblem(
        await harness.http
          .post("/raffle/ticket/sign")
          .set({ Authorization: `Bearer ${key}x` })
          .send(body),
        401,
        "unauthorized",
      );
      expect(nestGuard).not.toHaveBeenCalled();
    });

    it("hands a body its own check refuses to the validation pipe, which lists every bad field", async () => {
      const response = await harness.http
        .post("/raffle/ticket/sign")
        .set({ Authorization: `Bearer ${key}` })
        .send({ account: "0x12", contractId: 0, extra: 1 });
      expect(fieldsOf(expectProblem(response, 400, "validationFailed"))).toEqual(["account", "contractId", "extra"]);
      expectProblem(
        await harness.http
          .post("/raffle/ticket/sign")
          .set({ Authorization: `Bearer ${key}` })
          .send({ account: await account(), contractId: 999_999 }),
        404,
        "contractNotFound",
      );
      expect(nestGuard).not.toHaveBeenCalled();
    });
  });

  describe("the hot reads", () => {
    it("answers each read as JSON, the same bytes on a cache hit, without Nest's guard", async () => {
      const account = await harness.world.players[0].getAddress();
      for (const url of [
        `/rounds/current?contractId=${contractId}`,
        `/rounds?contractId=${contractId}&skip=0&take=25`,
        "/raffle/contracts?chainId=31337",
        `/claims?account=${account}`,
      ]) {
        const first = await harness.http.get(url).set(auth()).expect(200);
        const again = await harness.http.get(url).set(auth()).expect(200);
        expect(first.headers["content-type"]).toBe("application/json; charset=utf-8");
        expect(again.text).toBe(first.text);
        expect(first.text).toBe(JSON.stringify(JSON.parse(first.text)));
      }
      expect(nestGuard).not.toHaveBeenCalled();
    });

    it("refuses without a key and a bad query every time, and answers the same query once it is right", async () => {
      expectProblem(await harness.http.get(`/rounds/current?contractId=${contractId}`), 401, "unauthorized");
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const refused = await harness.http.get("/rounds?contractId=0&take=101&extra=1").set(auth());
        expect(fieldsOf(expectProblem(refused, 400, "validationFailed"))).toEqual(["contractId", "extra", "take"]);
        expect(fieldsOf(expectProblem(await harness.http.get("/claims?account=0x12").set(auth()), 400, "validationFailed"))).toEqual(["account"]);
      }
      expectProblem(await harness.http.get("/rounds/current?contractId=999999").set(auth()), 404, "contractNotFound");
      expectProblem(await harness.http.get("/raffle/contracts?chainId=5").set(auth()), 422, "chainNotServed");
      // The same values written otherwise ("007") are validated (and kept) apart and give the same answer.
      const plain = await harness.http.get(`/rounds?contractId=${contractId}&take=7`).set(auth()).expect(200);
      const padded = await harness.http.get(`/rounds?contractId=${contractId}&take=007`).set(auth()).expect(200);
      expect(padded.text).toBe(plain.text);
      expect(nestGuard).not.toHaveBeenCalled();
    });
  });

  describe("the start-up check that nothing in Nest's pipeline is skipped", () => {
    /** A guard, as a later change might register for every route, that the direct handlers know nothing of. */
    @Injectable()
    class AuditGuard implements CanActivate {
      canActivate(_context: ExecutionContext): boolean {
        return true;
      }
    }

    @Injectable()
    class TimingInterceptor implements NestInterceptor {
      intercept(_context: ExecutionContext, next: CallHandler) {
        return next.handle();
      }
    }

    /** A second application on the harness's database and chain, closed whatever its start did. */
    async function withApp(use: (app: NestFastifyApplication) => Promise<void>): Promise<void> {
      const app = await createApp(harness.config);
      try {
        await use(app);
      } finally {
        await app.close();
      }
    }

    it("refuses to start when a global guard is added without the table, naming the guard and a direct route", async () => {
      await withApp(async (app) => {
        app.useGlobalGuards(new AuditGuard());
        const start = app.init();
        await expect(start).rejects.toBeInstanceOf(DirectRouteSkipsNestPart);
        await expect(start).rejects.toThrow(/^(GET|POST) \/[a-z/]+ is served outside Nest.s pipeline .*global guard AuditGuard/);
      });
    });

    it("refuses a global interceptor, filter or pipe the direct handlers do not run", async () => {
      for (const add of [
        (app: NestFastifyApplication) => app.useGlobalInterceptors(new TimingInterceptor()),
        (app: NestFastifyApplication) => app.useGlobalFilters({ catch: () => undefined }),
        (app: NestFastifyApplication) => app.useGlobalPipes({ transform: (value: unknown) => value }),
      ]) {
        await withApp(async (app) => {
          add(app);
          await expect(app.init()).rejects.toBeInstanceOf(DirectRouteSkipsNestPart);
        });
      }
    });

    it("refuses a request-scoped global enhancer and a route's own enhancer, as Nest would run both", () => {
      const route = DIRECT_ROUTES[0];
      const { config } = harness.app as unknown as { config: ApplicationConfig };
      expect(() => assertRunsNestPipeline(route, { config })).not.toThrow();
      config.addGlobalRequestInterceptor({ metatype: TimingInterceptor } as never);
      try {
        expect(() => assertRunsNestPipeline(route, { config })).toThrow(/global interceptor TimingInterceptor \(request-scoped\)/);
      } finally {
        config.getGlobalRequestInterceptors().pop();
      }
      class GuardedController {
        handle(): void {}
      }
      Reflect.defineMetadata("__guards__", [AuditGuard], GuardedController.prototype.handle);
      expect(() => assertRunsNestPipeline({ ...route, controller: GuardedController, handler: "handle" }, { config })).toThrow(
        /GuardedController.handle has enhancers of its own \(__guards__\)/,
      );
    });

    it("refuses to be ready when a route of the table is never registered by Nest", async () => {
      await withApp(async (app) => {
        const fastify = app.getHttpAdapter().getInstance();
        serveDirectRoutes(fastify, () => ({ config: undefined as never, controller: () => undefined as never }), [
          { ...DIRECT_ROUTES[1], path: "/rounds/renamed" },
        ]);
        await app.init();
        await expect(fastify.ready()).rejects.toThrow("direct routes Nest never registered: GET /rounds/renamed");
      });
    });
  });
});
