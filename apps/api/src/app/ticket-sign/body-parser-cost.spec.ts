import { AsyncResource } from "node:async_hooks";
import Fastify from "fastify";

import { acceptJsonBodiesOnly } from "../../common/json-body";

/**
 * Every sign request has a JSON body. Fastify before 5.12 wrapped each body's callback in AsyncResource#bind, which on
 * Node 20 costs about 20 µs per request (two DEP0172-deprecated accessors per call); the root package.json pins a
 * Fastify that does not (see docs/performance.md, "Where the sign path's CPU goes"). This fails if that pin goes.
 */
describe("the API's JSON body parsing", () => {
  it("parses a body without binding a function to an AsyncResource per request", async () => {
    const fastify = Fastify();
    acceptJsonBodiesOnly(fastify);
    fastify.post("/echo", async (request) => request.body);
    const bind = jest.spyOn(AsyncResource.prototype, "bind");
    try {
      const answer = await fastify.inject({
        method: "POST",
        url: "/echo",
        headers: { "content-type": "application/json" },
        payload: JSON.stringify({ contractId: 3 }),
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ contractId: 3 });
      expect(bind).not.toHaveBeenCalled();
    } finally {
      bind.mockRestore();
      await fastify.close();
    }
  });
});
