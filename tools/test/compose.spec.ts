import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";

const ROOT = path.resolve(__dirname, "../..");

interface ComposeService {
  image?: string;
  build?: { context: string; target: string };
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
}

const compose = parse(fs.readFileSync(path.join(ROOT, "docker-compose.yml"), "utf8")) as {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
};
const dockerfile = fs.readFileSync(path.join(ROOT, "Dockerfile"), "utf8");

describe("docker-compose.yml: the production shape", () => {
  it("runs PostgreSQL, a chain node, the API and the merchant worker", () => {
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(["postgres", "chain", "api", "merchant-worker"]));
    expect(compose.services.postgres.image).toMatch(/^postgres:/);
  });

  it("builds every service from a target the Dockerfile defines, and copies every workspace manifest", () => {
    const targets = [...dockerfile.matchAll(/^FROM \S+ AS (\S+)$/gm)].map((match) => match[1]);
    for (const service of Object.values(compose.services).filter((candidate) => candidate.build)) {
      expect(targets).toContain(service.build!.target);
      expect(service.build!.context).toBe(".");
    }
    const rootManifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { workspaces: string[] };
    const workspaces = rootManifest.workspaces.flatMap((pattern) =>
      pattern.endsWith("/*") ? fs.readdirSync(path.join(ROOT, pattern.slice(0, -2))).map((name) => `${pattern.slice(0, -2)}/${name}`) : [pattern],
    );
    for (const workspace of workspaces.filter((dir) => fs.existsSync(path.join(ROOT, dir, "package.json")))) {
      expect(dockerfile).toContain(`COPY ${workspace}/package.json ${workspace}/`);
    }
  });

  it("wires the API to PostgreSQL, the chain and its deployment, and keeps secrets out of the file", () => {
    const api = compose.services.api;
    expect(api.environment!.DATABASE_URL).toMatch(/@postgres:5432\//);
    expect(api.environment!.RPC_URL).toBe("http://chain:8545");
    expect(api.environment!.INDEXER_WS_URL).toBe("ws://chain:8545");
    expect(api.depends_on!.postgres.condition).toBe("service_healthy");
    expect(api.depends_on!.deployer.condition).toBe("service_completed_successfully");
    const text = fs.readFileSync(path.join(ROOT, "docker-compose.yml"), "utf8");
    expect(text).not.toMatch(/0x[0-9a-fA-F]{64}/);
  });

  it("restarts every long-running service and checks the health of each, Redis and the worker included", () => {
    const services = compose.services as Record<string, ComposeService & { restart?: string; healthcheck?: { test: string[] } }>;
    for (const [name, service] of Object.entries(services)) {
      if (name === "deployer") {
        expect(service.restart).toBe("no");
        continue;
      }
      expect({ name, restart: service.restart }).toEqual({ name, restart: "unless-stopped" });
      // The API's check is the image's own HEALTHCHECK (Dockerfile); every other service declares one here.
      if (name !== "api") expect({ name, test: service.healthcheck?.test.length }).toEqual({ name, test: expect.any(Number) });
    }
    expect(dockerfile).toMatch(/^FROM runtime AS api\n[\s\S]*?HEALTHCHECK /m);
    expect(services.api.depends_on!.redis.condition).toBe("service_healthy");
    expect(services["merchant-worker"].healthcheck!.test.join(" ")).toContain("127.0.0.1:8080/health");
  });

  it("is well formed: images or builds, known dependency conditions, declared volumes", () => {
    const conditions = ["service_started", "service_healthy", "service_completed_successfully"];
    for (const [name, service] of Object.entries(compose.services) as Array<[string, ComposeService & { volumes?: string[] }]>) {
      expect(Boolean(service.image) !== Boolean(service.build)).toBe(true);
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(Object.keys(compose.services)).toContain(dependency);
        expect(conditions).toContain(condition);
        expect(dependency).not.toBe(name);
      }
      for (const mount of service.volumes ?? []) {
        const source = mount.split(":")[0];
        if (!source.startsWith(".") && !source.startsWith("/")) expect(Object.keys(compose.volumes)).toContain(source);
      }
    }
  });
});
