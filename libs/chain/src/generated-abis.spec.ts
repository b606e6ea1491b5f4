import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Interface, NamedFragment, type InterfaceAbi } from "ethers";

import * as APP_ABIS from "./generated/app-abis";
import * as CLIENT_ABIS from "./generated/client-abis";
import {
  Exchange__factory,
  RaffleFactory__factory,
  RaffleTicket__factory,
  Raffle__factory,
  TestCollectible__factory,
  TestItems1155__factory,
  TestToken__factory,
} from "./typechain";

const GENERATOR = path.join(__dirname, "../scripts/abi-generate.cjs");
const GENERATED = path.join(__dirname, "generated");

function generate(...args: string[]): { status: number; output: string } {
  try {
    return { status: 0, output: execFileSync(process.execPath, [GENERATOR, ...args], { encoding: "utf8", stdio: "pipe" }) };
  } catch (error) {
    const failed = error as { status: number; stdout: string; stderr: string };
    return { status: failed.status, output: `${failed.stdout}${failed.stderr}` };
  }
}

describe("the generated ABIs (libs/chain/src/generated)", () => {
  it("are what the compiled contracts give today (`npm --workspace libs/chain run abi:generate` after a contract change)", () => {
    expect(generate("--check")).toEqual({ status: 0, output: "ABIs up to date\n" });
  });

  it("catch a stale file: an argument renamed by hand, or a file missing", () => {
    const stale = fs.mkdtempSync(path.join(os.tmpdir(), "abis-"));
    try {
      const client = fs.readFileSync(path.join(GENERATED, "client-abis.ts"), "utf8");
      fs.writeFileSync(path.join(stale, "client-abis.ts"), client.replace("uint256 quantity) view", "uint256 count) view"));
      const result = generate("--check", "--out", stale);
      expect(result.status).toBe(1);
      expect(result.output).toContain("client-abis.ts");
      expect(result.output).toContain("app-abis.ts");
    } finally {
      fs.rmSync(stale, { recursive: true, force: true });
    }
  });

  it("read as the compiled fragments, line for line", () => {
    const compiled = [
      Raffle__factory,
      RaffleFactory__factory,
      RaffleTicket__factory,
      Exchange__factory,
      TestToken__factory,
      TestCollectible__factory,
      TestItems1155__factory,
    ].map((factory) => factory.createInterface());
    // Lines, or JSON fragments for a list viem cannot type from lines (EXCHANGE_GASLESS_ABI): ethers reads both.
    const lists: Record<string, InterfaceAbi & { length: number }> = { ...CLIENT_ABIS, ...APP_ABIS };
    expect(Object.keys(lists).length).toBeGreaterThan(5);
    for (const [name, lines] of Object.entries(lists)) {
      const generated = new Interface(lines);
      expect({ name, count: generated.fragments.length }).toEqual({ name, count: lines.length });
      for (const fragment of generated.fragments) {
        const twin = compiled
          .flatMap((contract) => contract.fragments)
          .find(
            (candidate) =>
              candidate instanceof NamedFragment && fragment instanceof NamedFragment && candidate.format("full") === fragment.format("full"),
          );
        expect({ name, fragment: fragment.format("full"), compiled: Boolean(twin) }).toEqual({
          name,
          fragment: fragment.format("full"),
          compiled: true,
        });
      }
    }
  });
});
