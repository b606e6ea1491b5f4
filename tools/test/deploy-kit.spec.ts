import * as fs from "node:fs";
import * as path from "node:path";
import { parser as promql } from "@prometheus-io/lezer-promql";
import { parse, parseAllDocuments } from "yaml";

/**
 * The deploy kit in deploy/ held to the code and the README: Prometheus rules for every alert of the README's table
 * (each expression parsed by Prometheus's own PromQL grammar), a Grafana dashboard of metrics the apps export,
 * Kustomize manifests with probes and secrets from files, a production compose file and its .env.example, and the
 * compiled commands the docs name.
 */
const ROOT = path.resolve(__dirname, "../..");
const DEPLOY = path.join(ROOT, "deploy");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
/** The README and every page of docs/ (hand-written guides and generated references), read as one text. */
function docsText(): string {
  const pages = (dir: string): string[] =>
    fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return pages(file);
      return entry.name.endsWith(".md") ? [file] : [];
    });
  return ["README.md", ...pages("docs").sort()].map(read).join("\n");
}
const README = docsText();
const KIT_README = read("deploy/README.md");

/** Metric names an app registers: every `raffle_...` string in its metrics source. */
function metricNames(file: string): Set<string> {
  return new Set([...read(file).matchAll(/"(raffle_[a-z_]+)"/g)].map((match) => match[1]));
}
const API_METRICS = metricNames("apps/api/src/metrics/api-metrics.ts");
const WORKER_METRICS = metricNames("apps/merchant-worker/src/worker-metrics.ts");

/** The series an expression reads, with a histogram's _bucket/_count/_sum mapped to its name. */
function seriesOf(expr: string): string[] {
  return [...expr.matchAll(/\b(raffle_[a-z_]+)/g)].map((match) => match[1]);
}
function exported(series: string, names: Set<string>): boolean {
  return names.has(series) || names.has(series.replace(/_(bucket|count|sum)$/, ""));
}

/** Syntax errors Prometheus's PromQL grammar finds in `expr` (its error nodes), as positions. */
function promqlErrors(expr: string): number[] {
  const errors: number[] = [];
  promql.parse(expr).iterate({
    enter: (node) => {
      if (node.type.isError) errors.push(node.from);
    },
  });
  return errors;
}

interface ReadmeAlert {
  name: string;
  expression: string;
  forDuration?: string;
}

/** The README's alert table: the alert's name, the PromQL in its expression cell, and its "for N min". */
function readmeAlerts(): ReadmeAlert[] {
  const table = README.split("Alerts to set")[1].split("\n\n")[1];
  return table
    .split("\n")
    .slice(2)
    .map((row) => {
      const cells = row.split(/(?<!\\)\|/).map((cell) => cell.trim());
      const words = cells[1].split(/\s+/).map((word) => word[0].toUpperCase() + word.slice(1));
      const forMinutes = /for (\d+) min/.exec(cells[2]);
      return {
        name: `Raffle${words.join("").replace(/[^A-Za-z0-9]/g, "")}`,
        expression: /`([^`]+)`/.exec(cells[2])![1],
        forDuration: forMinutes ? `${forMinutes[1]}m` : undefined,
      };
    });
}

describe("deploy/prometheus/alerts.yml", () => {
  interface Rule {
    alert: string;
    expr: string;
    for?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  }
  const rules = (parse(fs.readFileSync(path.join(DEPLOY, "prometheus/alerts.yml"), "utf8")) as { groups: { rules: Rule[] }[] }).groups.flatMap(
    (group) => group.rules,
  );
  const alerts = readmeAlerts();

  it("has one rule for each of the README's 19 alerts, with its expression, duration, severity and annotations", () => {
    expect(alerts).toHaveLength(19);
    // The four conditions an operator cannot see from request metrics: failing webhook endpoints, rounds waiting on
    // randomness, the VRF subscription's balance, and a revoked key that keeps calling.
    expect(alerts.map((alert) => alert.name)).toEqual(
      expect.arrayContaining([
        "RaffleWebhookEndpointFailing",
        "RaffleRandomnessLate",
        "RaffleVRFBalanceLow",
        "RaffleRevokedKeyInUse",
        "RaffleNoIndexerLeader",
        "RaffleReplicaLagging",
        "RaffleOutboxBacklog",
      ]),
    );
    expect(rules.map((rule) => rule.alert).sort()).toEqual(alerts.map((alert) => alert.name).sort());
    for (const alert of alerts) {
      const rule = rules.find((candidate) => candidate.alert === alert.name)!;
      expect({ alert: rule.alert, expr: rule.expr }).toEqual({ alert: alert.name, expr: alert.expression });
      expect({ alert: rule.alert, for: rule.for }).toEqual({ alert: alert.name, for: alert.forDuration });
      expect(rule.labels?.severity).toMatch(/^(info|warning|critical)$/);
      expect(rule.annotations?.summary).toEqual(expect.any(String));
      expect(rule.annotations?.description).toEqual(expect.any(String));
    }
  });

  it("parses every expression with Prometheus's PromQL grammar, and reads only series the apps export", () => {
    // The check itself catches a broken expression.
    expect(promqlErrors("sum by (chainId (rate(raffle_rpc_errors_total[5m])) >")).not.toEqual([]);
    for (const rule of rules) {
      expect({ alert: rule.alert, errors: promqlErrors(rule.expr) }).toEqual({ alert: rule.alert, errors: [] });
      for (const series of seriesOf(rule.expr)) {
        expect({ series, exported: exported(series, new Set([...API_METRICS, ...WORKER_METRICS])) }).toEqual({ series, exported: true });
      }
    }
  });
});

describe("deploy/grafana/raffle-dashboard.json", () => {
  const dashboard = JSON.parse(fs.readFileSync(path.join(DEPLOY, "grafana/raffle-dashboard.json"), "utf8")) as {
    uid: string;
    panels: { title: string; targets: { expr: string }[] }[];
  };

  it("charts the API's main series, each panel from metrics the API's /metrics exports, in valid PromQL", () => {
    expect(dashboard.uid).toBe("raffle-api");
    const used = new Set<string>();
    for (const panel of dashboard.panels) {
      expect(panel.targets.length).toBeGreaterThan(0);
      for (const { expr } of panel.targets) {
        expect({ panel: panel.title, errors: promqlErrors(expr) }).toEqual({ panel: panel.title, errors: [] });
        const series = seriesOf(expr);
        expect(series.length).toBeGreaterThan(0);
        for (const name of series) {
          expect({ panel: panel.title, name, exported: exported(name, API_METRICS) }).toEqual({ panel: panel.title, name, exported: true });
          used.add(name.replace(/_(bucket|count|sum)$/, ""));
        }
      }
    }
    // Every series of the API has a panel.
    expect([...API_METRICS].filter((name) => !used.has(name))).toEqual([]);
  });
});

describe("deploy/kubernetes (Kustomize)", () => {
  const dir = path.join(DEPLOY, "kubernetes");
  interface Kustomization {
    resources: string[];
    secretGenerator: { name: string; files?: string[]; literals?: string[] }[];
    configMapGenerator: { name: string; files?: string[]; literals?: string[] }[];
  }
  const kustomization = parse(fs.readFileSync(path.join(dir, "kustomization.yaml"), "utf8")) as Kustomization;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const manifests: any[] = kustomization.resources.flatMap((file) =>
    parseAllDocuments(fs.readFileSync(path.join(dir, file), "utf8")).map((document) => {
      expect(document.errors).toEqual([]);
      return document.toJS();
    }),
  );
  const find = (kind: string, name: string) => manifests.find((manifest) => manifest.kind === kind && manifest.metadata.name === name);
  const container = (workload: { spec: { template: { spec: { containers: unknown[] } } } }) =>
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    workload.spec.template.spec.containers[0] as any;

  it("lists the API (replicas, /health liveness, /ready readiness), its Service, the worker, the web pages and the migrations Job", () => {
    for (const manifest of manifests) {
      expect(manifest).toMatchObject({ apiVersion: expect.any(String), kind: expect.any(String), metadata: { name: expect.any(String) } });
    }
    expect(manifests.map((manifest) => `${manifest.kind}/${manifest.metadata.name}`).sort()).toEqual(
      [
        "Namespace/raffle",
        "Job/raffle-migrations",
        "Deployment/raffle-api",
        "Service/raffle-api",
        "HorizontalPodAutoscaler/raffle-api",
        "PodDisruptionBudget/raffle-api",
        "Deployment/raffle-indexer",
        "PodDisruptionBudget/raffle-indexer",
        "Deployment/raffle-delivery",
        "PodDisruptionBudget/raffle-delivery",
        "Deployment/raffle-pgbouncer",
        "Service/raffle-pgbouncer",
        "PodDisruptionBudget/raffle-pgbouncer",
        "Deployment/raffle-merchant-worker",
        "Deployment/raffle-web",
        "Service/raffle-web",
      ].sort(),
    );
    const api = find("Deployment", "raffle-api");
    expect(api.spec.replicas).toBeGreaterThanOrEqual(2);
    expect(api.spec.selector.matchLabels).toEqual(api.spec.template.metadata.labels);
    expect(container(api).livenessProbe.httpGet).toMatchObject({ path: "/health" });
    expect(container(api).readinessProbe.httpGet).toMatchObject({ path: "/ready" });
    const worker = find("Deployment", "raffle-merchant-worker");
    expect(container(worker).readinessProbe.httpGet).toMatchObject({ path: "/health", port: "health" });
    expect(container(worker).livenessProbe).toBeDefined();
    const job = find("Job", "raffle-migrations");
    expect(container(job).command).toEqual(["node", "dist/libs/db/src/cli/migrate.js"]);
    expect(job.spec.template.spec.restartPolicy).toBe("OnFailure");
  });

  it("runs each API role in a Deployment of its own: serving autoscaled, two indexers, every role with a disruption budget", () => {
    const roleOf = (name: string) => container(find("Deployment", name)).env.find((entry: { name: string }) => entry.name === "API_ROLES")?.value;
    expect(["raffle-api", "raffle-indexer", "raffle-delivery"].map(roleOf)).toEqual(["serve", "index", "deliver"]);
    for (const name of ["raffle-api", "raffle-indexer", "raffle-delivery"]) {
      const workload = find("Deployment", name);
      // One image for every role.
      expect(container(workload).image).toBe("raffle-api");
      expect(container(workload).livenessProbe.httpGet).toMatchObject({ path: "/health" });
      const budget = find("PodDisruptionBudget", name);
      expect({ name, selector: budget.spec.selector.matchLabels }).toEqual({ name, selector: workload.spec.template.metadata.labels });
      expect(budget.spec.maxUnavailable).toBe(1);
    }
    // A standby takes a chain over when its leader goes.
    expect(find("Deployment", "raffle-indexer").spec.replicas).toBeGreaterThanOrEqual(2);
    const autoscaler = find("HorizontalPodAutoscaler", "raffle-api");
    expect(autoscaler.spec.scaleTargetRef).toEqual({ apiVersion: "apps/v1", kind: "Deployment", name: "raffle-api" });
    expect(autoscaler.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(autoscaler.spec.maxReplicas).toBeGreaterThan(autoscaler.spec.minReplicas);
  });

  it("puts PgBouncer in transaction mode, with named statements kept, between PostgreSQL and the serving and delivery pods only", () => {
    const settings = Object.fromEntries(
      kustomization.configMapGenerator.find((generator) => generator.name === "pgbouncer-settings")!.literals!.map((entry) => entry.split("=")),
    );
    expect(settings).toMatchObject({ PGBOUNCER_POOL_MODE: "transaction" });
    expect(Number(settings.PGBOUNCER_MAX_PREPARED_STATEMENTS)).toBeGreaterThan(0);
    const databaseKey = (name: string) =>
      container(find("Deployment", name)).env.find((entry: { name: string }) => entry.name === "DATABASE_URL").valueFrom.secretKeyRef.key;
    expect(["raffle-api", "raffle-delivery", "raffle-indexer"].map(databaseKey)).toEqual([
      "DATABASE_POOLED_URL",
      "DATABASE_POOLED_URL",
      "DATABASE_URL",
    ]);
    // The migrations and the indexers' session-level leadership lock connect directly.
    expect(
      container(find("Job", "raffle-migrations")).env.find((entry: { name: string }) => entry.name === "DATABASE_URL").valueFrom.secretKeyRef.key,
    ).toBe("DATABASE_URL");
    expect(container(find("Deployment", "raffle-api")).env.map((entry: { name: string }) => entry.name)).toContain("DATABASE_REPLICA_URL");
  });

  it("runs every workload as a non-root user", () => {
    for (const workload of manifests.filter((manifest) => manifest.spec?.template)) {
      expect({ workload: workload.metadata.name, securityContext: workload.spec.template.spec.securityContext }).toEqual({
        workload: workload.metadata.name,
        securityContext: expect.objectContaining({ runAsNonRoot: true, runAsUser: expect.any(Number) }),
      });
      expect(workload.spec.template.spec.securityContext.runAsUser).toBeGreaterThan(0);
    }
  });

  it("serves the web pages from deploy/web's nginx image: readiness on the page, its config.json, and writable only where nginx writes", () => {
    const web = find("Deployment", "raffle-web");
    expect(web.spec.replicas).toBeGreaterThanOrEqual(2);
    expect(web.spec.selector.matchLabels).toEqual(web.spec.template.metadata.labels);
    const nginx = container(web);
    const images = (parse(fs.readFileSync(path.join(dir, "kustomization.yaml"), "utf8")) as { images: { name: string }[] }).images;
    expect(images.map((image) => image.name)).toContain(nginx.image);
    // The port the image listens on (deploy/web/nginx.conf), probed on the page itself.
    const listen = /^\s*listen (\d+);/m.exec(read("deploy/web/nginx.conf"))![1];
    expect(nginx.ports).toEqual([{ name: "http", containerPort: Number(listen) }]);
    expect(nginx.readinessProbe.httpGet).toEqual({ path: "/", port: "http" });
    expect(nginx.livenessProbe).toBeDefined();
    const service = find("Service", "raffle-web");
    expect(service.spec.selector).toEqual(web.spec.template.metadata.labels);
    expect(service.spec.ports.map((port: { targetPort: string }) => port.targetPort)).toEqual(["http"]);

    // config.json from a generated ConfigMap, where the image's start script reads it.
    const volumes = new Map(web.spec.template.spec.volumes.map((volume: { name: string }) => [volume.name, volume]));
    const mounts: { name: string; mountPath: string; subPath?: string; readOnly?: boolean }[] = nginx.volumeMounts;
    const config = mounts.find((mount) => mount.mountPath === "/usr/share/nginx/html/config.json")!;
    expect(config).toMatchObject({ subPath: "config.json", readOnly: true });
    const configMap = (volumes.get(config.name) as { configMap: { name: string } }).configMap.name;
    const generator = kustomization.configMapGenerator.find((entry) => entry.name === configMap)!;
    expect(generator.files).toEqual(["config.json=web/config.json"]);
    expect(read("deploy/web/40-security-headers.sh")).toContain("/usr/share/nginx/html/config.json");

    // A read-only root, no privilege: nginx's cache, pid and the headers file its start script writes (the path
    // nginx.conf includes) each on an emptyDir; the template it reads from must not sit under that volume.
    expect(nginx.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ["ALL"] } });
    const headers = /include (\S+\/security-headers\.conf);/.exec(read("deploy/web/nginx.conf"))![1];
    const script = read("deploy/web/40-security-headers.sh");
    expect(script).toContain(`WEB_HEADERS_FILE:-${headers}}`);
    const template = /WEB_HEADERS_TEMPLATE:-([^}]+)\}/.exec(script)![1];
    expect(read("deploy/web/Dockerfile")).toContain(` ${template}\n`);
    const writable = mounts.filter((mount) => (volumes.get(mount.name) as { emptyDir?: object }).emptyDir).map((mount) => mount.mountPath);
    for (const written of [headers, "/var/cache/nginx/client_temp", "/run/nginx.pid"]) {
      expect({ written, writable: writable.some((dirPath) => written.startsWith(`${dirPath}/`)) }).toEqual({ written, writable: true });
    }
    expect({ template, hidden: writable.some((dirPath) => template.startsWith(`${dirPath}/`)) }).toEqual({ template, hidden: false });
  });

  it("takes every secret from files: no Secret manifest, no literal secret value, every reference generated", () => {
    expect(manifests.filter((manifest) => manifest.kind === "Secret")).toEqual([]);
    for (const generator of kustomization.secretGenerator) {
      expect({ secret: generator.name, literals: generator.literals }).toEqual({ secret: generator.name, literals: undefined });
      for (const entry of generator.files!) expect(entry).toMatch(/^[A-Za-z0-9_.-]+=secrets\/[a-z0-9.-]+$/);
    }
    const generated = new Map(
      kustomization.secretGenerator.map((generator) => [generator.name, generator.files!.map((entry) => entry.split("=")[0])]),
    );
    for (const workload of manifests.filter((manifest) => manifest.spec?.template)) {
      const { env = [], volumeMounts = [] } = container(workload);
      for (const variable of env as { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[]) {
        if (variable.name === "API_ROLES") {
          // The one literal that is not a path: what the pod does (its Deployment's role).
          expect(variable.value).toMatch(/^(serve|index|deliver)$/);
        } else if (variable.value !== undefined) {
          // A literal is only ever a path to a mounted secret file, never a key, password or URL.
          expect({ name: variable.name, value: variable.value }).toEqual({ name: variable.name, value: expect.stringMatching(/^\/run\/secrets\//) });
          expect(variable.name).toMatch(/_FILE$/);
          expect(volumeMounts.some((mount: { mountPath: string }) => variable.value!.startsWith(mount.mountPath))).toBe(true);
        }
        const reference = variable.valueFrom?.secretKeyRef;
        if (reference) expect(generated.get(reference.name)).toContain(reference.key);
      }
      for (const volume of workload.spec.template.spec.volumes ?? []) {
        if (volume.secret) expect(generated.has(volume.secret.secretName)).toBe(true);
      }
    }
    // Secret files are never committed.
    expect(fs.readFileSync(path.join(ROOT, ".gitignore"), "utf8")).toMatch(/^deploy\/kubernetes\/secrets\/$/m);
  });
});

describe("deploy/compose.production.yml and deploy/.env.example", () => {
  interface Service {
    restart?: string;
    healthcheck?: { test: string[] };
    depends_on?: Record<string, { condition: string }>;
    environment?: Record<string, string>;
    command?: string[];
  }
  const compose = parse(fs.readFileSync(path.join(DEPLOY, "compose.production.yml"), "utf8")) as {
    services: Record<string, Service>;
    secrets: Record<string, { file: string }>;
  };
  const services = compose.services;
  const example = fs.readFileSync(path.join(DEPLOY, ".env.example"), "utf8");
  const exampleValues = new Map([...example.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((match) => [match[1], match[2]]));

  it("restarts every service and checks the health of every long-running one, Redis and the worker included", () => {
    expect(Object.keys(services).sort()).toEqual(["api", "merchant-worker", "migrate", "postgres", "postgres-replica", "redis", "web"]);
    for (const [name, service] of Object.entries(services)) {
      expect({ name, restart: service.restart }).toEqual({ name, restart: name === "migrate" ? "on-failure" : "unless-stopped" });
      if (name !== "migrate") expect({ name, healthcheck: service.healthcheck?.test?.length }).toEqual({ name, healthcheck: expect.any(Number) });
    }
    expect(services.redis.healthcheck!.test).toEqual(["CMD", "redis-cli", "ping"]);
    expect(services["merchant-worker"].healthcheck!.test.join(" ")).toMatch(/127\.0\.0\.1:8080\/health/);
    expect(services.api.healthcheck!.test.join(" ")).toMatch(/\/ready/);
    expect(services.web.healthcheck!.test.join(" ")).toMatch(/127\.0\.0\.1:8080\//);
    // The order of first start: migrations, then the API, then (its key made) the worker.
    expect(services.migrate.command).toEqual(["node", "dist/libs/db/src/cli/migrate.js"]);
    expect(services.api.depends_on!.migrate).toEqual({ condition: "service_completed_successfully" });
    expect(services["merchant-worker"].depends_on!.api).toEqual({ condition: "service_healthy" });
  });

  it("keeps secrets out of the compose file: files under deploy/secrets, values from deploy/.env", () => {
    for (const secret of Object.values(compose.secrets)) expect(secret.file).toMatch(/^\.\/secrets\/[a-z0-9.-]+$/);
    for (const [name, service] of Object.entries(services)) {
      for (const [variable, value] of Object.entries(service.environment ?? {})) {
        if (/PASSWORD|PRIVATE_KEY|_KEY$|DATABASE_URL/.test(variable)) {
          expect({ name, variable, value }).toEqual({
            name,
            variable,
            value: expect.stringMatching(/^\$\{[A-Z_]+|^\/run\/secrets\/|\$\{POSTGRES_PASSWORD/),
          });
        }
      }
    }
    expect(fs.readFileSync(path.join(ROOT, ".gitignore"), "utf8")).toMatch(/^deploy\/secrets\/$/m);
    expect(fs.readFileSync(path.join(ROOT, ".gitignore"), "utf8")).toMatch(/^\.env$/m);
  });

  it(".env.example lists every setting the API and the worker read, and no secret value", () => {
    const sources = [
      ...fs
        .readdirSync(path.join(ROOT, "apps/api/src/config"))
        .filter((file) => file.endsWith(".ts") && !file.endsWith(".spec.ts"))
        .map((file) => `apps/api/src/config/${file}`),
      "apps/merchant-worker/src/config.ts",
      ...["chains", "settings", "read-settings"].map((name) => `libs/config/src/${name}.ts`),
    ].map(read);
    const text = sources.join("\n");
    // Constants and imported names are code, not settings.
    const code = new Set([
      ...[...text.matchAll(/\b(?:const|let|function|class|enum)\s+([A-Z][A-Z0-9_]+)/g)].map((match) => match[1]),
      ...[...text.matchAll(/import\s*\{([^}]+)\}/g)].flatMap((match) => match[1].split(",").map((name) => name.trim())),
    ]);
    // `Number.MAX_SAFE_INTEGER` and the like are properties, not settings.
    const names = [...new Set([...text.matchAll(/(?<![.\w])([A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9])\b/g)].map((match) => match[1]))];
    // The parts the voucher keys' names are built from (`${prefix}_${part}`, api-config.ts), not settings themselves.
    const fragments = new Set(["SIGNER_NEXT", "PRIVATE_KEY", "KEYSTORE_FILE", "KEYSTORE_PASSWORD_FILE"]);
    const fragment = (name: string) => fragments.has(name);
    const settings = names.filter(
      (name) => !code.has(name) && !fragment(name) && !name.startsWith("LOCAL_") && name !== "SIGNER_ROLE" && name !== "DEV_RPC_URL",
    );
    expect(settings).toEqual(expect.arrayContaining(["DATABASE_URL", "SIGNER_KEYSTORE_FILE", "WEBHOOK_ENCRYPTION_KEY_FILE", "LOW_GAS_BALANCE_ETH"]));
    expect(settings.filter((name) => !exampleValues.has(name))).toEqual([]);
    const secret = /PRIVATE_KEY$|PASSWORD$|ENCRYPTION_KEY$|^API_KEY$|DATABASE_URL$|REDIS_URL$|RPC_URL$|WS_URL$/;
    const filled = [...exampleValues].filter(([name, value]) => secret.test(name) && value !== "");
    expect(filled).toEqual([]);
  });
});

describe("the documented order of first start and the compiled commands", () => {
  it("deploy/README.md gives the first start in order: migrate, API, the worker's API key, worker", () => {
    const section = KIT_README.split(/^## First start/m)[1].split(/^## /m)[0];
    const steps = [
      "dist/libs/db/src/cli/migrate.js",
      "dist/apps/api/src/main.js",
      "dist/apps/api/src/cli/api-key.js create",
      "dist/apps/merchant-worker/src/main.js",
    ];
    const positions = steps.map((step) => section.indexOf(step));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it("every `node dist/...` command the docs give is built from a source that `npm run build` compiles", () => {
    const documented = new Set([...`${README}\n${KIT_README}`.matchAll(/node (dist\/[\w/.-]+)\.js/g)].map((match) => match[1]));
    expect([...documented]).toEqual(expect.arrayContaining(["dist/apps/api/src/cli/api-key", "dist/libs/db/src/cli/migrate"]));
    const migrate = JSON.parse(read("tools/build/tsconfig.migrate.json")) as { include: string[] };
    const built = (source: string) =>
      /^apps\/(api|merchant-worker)\/src\//.test(source) ||
      migrate.include.map((file) => path.relative(ROOT, path.join(ROOT, "tools/build", file))).includes(source);
    for (const compiled of documented) {
      const source = `${compiled.slice("dist/".length)}.ts`;
      expect({ source, exists: fs.existsSync(path.join(ROOT, source)), built: built(source) }).toEqual({ source, exists: true, built: true });
    }
  });
});

describe("the deployer's settings", () => {
  it("are all in the README's one table of deployer settings", () => {
    const files = [
      "contracts/hardhat.config.ts",
      "contracts/local-network.js",
      ...["contracts/deploy", "contracts/tasks", "libs/chain/src/deploy"].flatMap((dir) =>
        fs
          .readdirSync(path.join(ROOT, dir))
          .filter((file) => file.endsWith(".ts") && !file.endsWith(".spec.ts"))
          .map((file) => `${dir}/${file}`),
      ),
    ];
    const code = files.map(read).join("\n");
    const named = [
      ...[...code.matchAll(/\b(?:process\.env|env)\.([A-Z][A-Z0-9_]+)/g)].map((match) => match[1]),
      ...[...code.matchAll(/\b(?:vars\.(?:get|has)|setting)\("([A-Z][A-Z0-9_]+)"/g)].map((match) => match[1]),
      // Per role (keys.ts) and per network (networks.ts): the table names them by role and as <NAME>_...
      ...[...code.matchAll(/`\$\{role\}(_[A-Z_]+)`/g)].flatMap((match) => ["DEPLOYER", "MERCHANT"].map((role) => `${role}${match[1]}`)),
      ...[...code.matchAll(/`\$\{upper\}(_[A-Z_]+)`/g)].map((match) => `<NAME>${match[1]}`),
      ...[...read("libs/chain/src/deploy/platform-settings.ts").matchAll(/env: "([A-Z_]+)"/g)].map((match) => match[1]),
    ];
    const settings = [...new Set(named)];
    expect(settings).toEqual(
      expect.arrayContaining([
        "DEPLOYMENTS_DIR",
        "IGNITION_DIR",
        "ETHERSCAN_API_URL",
        "HARDHAT_CHAIN_ID",
        "<NAME>_RPC_URL",
        "DEPLOYER_KEYSTORE_FILE",
        "VRF_COORDINATOR",
      ]),
    );
    const table = README.split("Every setting a deployer may give")[1].split("\n\n")[1];
    expect(table).toMatch(/^\| Setting \| Where \| Meaning \|/);
    expect(settings.filter((name) => !table.includes(`\`${name}\``))).toEqual([]);
  });
});
