/**
 * What one API process does (API_ROLES), so that each part scales on its own from the same build:
 * - `serve`: the HTTP routes; stateless, any number of replicas behind a load balancer.
 * - `index`: one indexer per served chain; a PostgreSQL advisory lock per chain makes one process its leader and the
 *   others standbys that take the lock when the leader's session ends.
 * - `deliver`: the webhook delivery loop; any number of workers share the outbox (each claims rows with
 *   `FOR UPDATE SKIP LOCKED` under a lease), none sends a message twice.
 * A process without `serve` still answers the probes (PROBE_PATHS) on its port, for Kubernetes and Prometheus.
 */
export const API_ROLES = ["serve", "index", "deliver"] as const;

export type ApiRole = (typeof API_ROLES)[number];

/** The routes every process answers, whatever its roles: liveness, readiness, metrics and the indexers' status. */
export const PROBE_PATHS: ReadonlySet<string> = new Set(["/health", "/ready", "/metrics", "/status"]);

/**
 * A comma-separated list of roles, each at most once, in the order of API_ROLES; undefined when it names anything else
 * (the setting's refusal then quotes the list, unknown role included) or nothing.
 */
export function parseRoles(raw: string): ApiRole[] | undefined {
  const given = raw.split(",").map((part) => part.trim().toLowerCase());
  if (given.some((role) => !(API_ROLES as readonly string[]).includes(role))) return undefined;
  return API_ROLES.filter((role) => given.includes(role));
}
