import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ConfigError } from "@raffle/config";

import { deploymentRecord } from "../../test/support/deployment-record";
import { loadDeploymentFile } from "./deployment-file";

describe("the deployment file", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-deployment-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function write(content: string | Record<string, unknown>): string {
    const file = path.join(dir, `${Math.random().toString(36).slice(2)}.json`);
    fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
    return file;
  }

  const load = (file: string, chainId = 31337) => loadDeploymentFile({ DEPLOYMENT_FILE: file }, chainId);

  it("accepts a complete record of the configured chain", () => {
    const record = deploymentRecord();
    const file = write(record);
    expect(load(file)).toEqual({ deployment: record, file });
  });

  it("names the variable, the file and each missing field", () => {
    const { exchange: _omitted, ...withoutExchange } = deploymentRecord();
    const file = write(withoutExchange);
    expect(() => load(file)).toThrow(new ConfigError(`DEPLOYMENT_FILE ${file} is invalid: "exchange" is missing`));
  });

  it("refuses addresses that are not checksummed, zero or malformed, and says which", () => {
    const record = deploymentRecord();
    const file = write({
      ...record,
      exchange: (record.exchange as string).toLowerCase(),
      admin: "0x0000000000000000000000000000000000000000",
      signer: "0x12",
    });
    const message = (() => {
      try {
        load(file);
        return "";
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toContain(`DEPLOYMENT_FILE ${file} is invalid: `);
    expect(message).toContain(`"exchange" must be checksummed (EIP-55): ${record.exchange}`);
    expect(message).toContain('"admin" must not be the zero address');
    expect(message).toContain('"signer" must be a 0x-prefixed 20-byte address');
  });

  it("refuses a record of another chain and fields of the wrong type", () => {
    const file = write(deploymentRecord({ chainId: 1, deployBlock: "7", vrfIsMock: "yes", vrfKeyHash: "0x11" }));
    expect(() => load(file)).toThrow(
      /"chainId" is 1, but the file is configured for chain 31337; "vrfKeyHash" must be .*; "vrfIsMock" must be true or false; "deployBlock" must be a block number/,
    );
  });

  it("names the file when it is missing or not JSON, and the default path when DEPLOYMENT_FILE is unset", () => {
    const missing = path.join(dir, "nope.json");
    expect(() => load(missing)).toThrow(new RegExp(`^DEPLOYMENT_FILE ${missing} cannot be read \\(ENOENT\\)`));
    const notJson = write("{ exchange: ");
    expect(() => load(notJson)).toThrow(new ConfigError(`DEPLOYMENT_FILE ${notJson} is not valid JSON`));
    expect(() => loadDeploymentFile({}, 999_999_999)).toThrow(
      /^deployment file .*999999999\.json \(the default for chain 999999999; set DEPLOYMENT_FILE to use another\) cannot be read/,
    );
  });
});
