import type { FastifyInstance } from "fastify";

import { PROBE_PATHS } from "../config/roles";
import { problems } from "../common/problem";
import { sendProblem } from "../common/problem.filter";

/**
 * A process without the `serve` role (API_ROLES=index or deliver) answers only the probes on its port: Kubernetes
 * checks it and Prometheus scrapes it like any other, and no client can reach the HTTP routes through it (they are
 * the serving pods' to answer, behind their own autoscaling and rate limits). Any other path is the usual 404 problem.
 */
export function answerProbesOnly(fastify: FastifyInstance): void {
  fastify.addHook("onRequest", (request, reply, done) => {
    const path = request.url.split("?")[0];
    if (PROBE_PATHS.has(path.replace(/\/+$/, "") || "/")) return done();
    sendProblem(reply, problems.notFound(request.method, path), path);
  });
}
