import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Wallet } from "ethers";

import { runCompiledMain, type MainRun } from "../../api/test/support/compiled-main";
import { deploymentRecord } from "../../api/test/support/deployment-record";

/** A deployment file of the right shape (its contracts need not exist: these runs stop before reaching the chain). */
function deploymentFile(dir: string, overrides: Record<string, unknown> = {}): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify(deploymentRecord(overrides)));
  return file;
}

/** The API refuses to start on bad settings with one structured line that names what to fix and echoes no secret. */
describe("API start-up errors", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-startup-"));
  const base = {
    CHAIN_ID: "31337",
    DEPLOYMENT_FILE: deploymentFile(dir),
    PORT: "0",
    DATABASE_URL: "postgres://127.0.0.1:1/none",
    RPC_URL: "http://127.0.0.1:1",
  };

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function failureLines(run: MainRun): Array<Record<string, unknown>> {
    return run.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.level === "error");
  }

  describe("a malformed SIGNER_PRIVATE_KEY", () => {
    // A fresh random key per run, so the assertion cannot pass by luck of a fixed value.
    const hex = Wallet.createRandom().privateKey.slice(2);
    const forms: Array<[string, string, RegExp]> = [
      ["a trailing newline", `0x${hex}\n`, /whitespace/],
      ["a trailing space", `0x${hex} `, /whitespace/],
      ["0x0x", `0x0x${hex}`, /"0x" twice/],
      ["63 hex digits", `0x${hex.slice(0, 63)}`, /63 hex digits/],
      ["one bad character", `0x${hex.slice(0, 20)}z${hex.slice(21)}`, /not a hex digit/],
    ];

    it.each(forms)("with %s stops the API with one line naming the setting, and the key appears nowhere", async (_form, value, problem) => {
      const run = await runCompiledMain({ ...base, SIGNER_PRIVATE_KEY: value });
      expect(run.code).toBe(1);
      const output = `${run.stdout}${run.stderr}`;
      // Neither the key nor any 16-digit piece of it, in either case.
      for (let i = 0; i + 16 <= hex.length; i += 8) expect(output.toLowerCase()).not.toContain(hex.slice(i, i + 16));
      const errors = failureLines(run);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ message: "api failed to start", error: expect.stringMatching(/^SIGNER_PRIVATE_KEY is not a private key/) });
      expect(errors[0].error).toMatch(problem);
    });
  });

  it("stops on a deployment file without an exchange, naming the variable, the file and the field", async () => {
    const { exchange: _omitted, ...record } = deploymentRecord();
    const file = path.join(dir, "no-exchange.json");
    fs.writeFileSync(file, JSON.stringify(record));
    const run = await runCompiledMain({ ...base, DEPLOYMENT_FILE: file });
    expect(run.code).toBe(1);
    expect(failureLines(run)).toEqual([
      expect.objectContaining({ message: "api failed to start", error: `DEPLOYMENT_FILE ${file} is invalid: "exchange" is missing` }),
    ]);
  });

  it("stops on an unreachable database with one line naming DATABASE_URL, without its password", async () => {
    const run = await runCompiledMain({ ...base, DATABASE_URL: "postgres://raffle:hunter2@127.0.0.1:1/raffle?sslmode=disable" });
    expect(run.code).toBe(1);
    expect(failureLines(run)).toEqual([
      expect.objectContaining({
        message: "api failed to start",
        error: expect.stringMatching(/^cannot open the database at DATABASE_URL \(postgres:\/\/raffle@127\.0\.0\.1:1\/raffle\): .*ECONNREFUSED/),
      }),
    ]);
    expect(`${run.stdout}${run.stderr}`).not.toContain("hunter2");
  });

  it("stops on a DATABASE_URL or REDIS_URL without // before the host, and on PORT=99999, by name, printing no password", async () => {
    const run = await runCompiledMain({
      ...base,
      PORT: "99999",
      DATABASE_URL: "postgres:/raffle:hunter2@127.0.0.1/raffle",
      REDIS_URL: "redis:/default:hunter3@127.0.0.1:6379",
    });
    expect(run.code).toBe(1);
    expect(failureLines(run)).toEqual([
      expect.objectContaining({
        message: "api failed to start",
        error:
          'PORT must be an integer from 0 to 65535, got "99999"; ' +
          'DATABASE_URL must be a postgres:// or postgresql:// URL with a host after "//", got something that is not a URL; ' +
          'REDIS_URL must be a redis:// or rediss:// URL with a host after "//", got something that is not a URL',
      }),
    ]);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/hunter2|hunter3|\n\s+at /);
  });
});
