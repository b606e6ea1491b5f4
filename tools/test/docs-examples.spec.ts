import * as fs from "node:fs";
import * as path from "node:path";
import { Wallet } from "ethers";
import { LOCAL_DEV_KEYS, localDevPrivateKey, wellKnownDevAccountIndex } from "@raffle/chain";

import { STACK_PLAYER_INDEXES, type StackFile } from "../stack/stack-file";

/**
 * The examples a developer copies first: the SDK README's install line, and the guides' commands against `npm start`
 * (its ports, its accounts, the facts it writes to .local/stack.json). A guide that names an id, an account or a port
 * the stack does not have fails here.
 */
const ROOT = path.resolve(__dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

/** The fenced code blocks of a Markdown text, with their language. */
function codeBlocks(text: string): Array<{ language: string; code: string }> {
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({ language: match[1], code: match[2] }));
}

type SdkManifest = { name: string; version: string; private?: boolean; scripts: Record<string, string> };

/**
 * libs/sdk's workspace manifest. While another suite packs the SDK, package.json is the published one and the workspace
 * one is kept aside (libs/sdk/scripts/manifest.js), so the one with scripts is taken, whichever file holds it now.
 */
function workspaceManifest(): SdkManifest {
  for (let tries = 0; tries < 100; tries += 1) {
    for (const file of ["libs/sdk/.package.workspace.json", "libs/sdk/package.json"]) {
      try {
        const manifest = JSON.parse(read(file)) as SdkManifest;
        if (manifest.scripts) return manifest;
      } catch {
        // Moved back by the pack's restore between the two reads: the other file holds it.
      }
    }
  }
  throw new Error("libs/sdk has no manifest with scripts");
}

describe("libs/sdk/README.md's install line", () => {
  const sdk = workspaceManifest();
  const firstBlock = codeBlocks(read("libs/sdk/README.md")).find((block) => block.language === "bash")!;
  const commands = firstBlock.code
    .split("\n")
    .map((line) => line.replace(/#.*$/, "").trim())
    .filter(Boolean);

  it("packs the SDK from the clone and installs the very tarball npm pack writes (the package is not on the registry)", () => {
    // `npm pack` names the tarball after the package: @scope/name 1.2.3 -> scope-name-1.2.3.tgz.
    const tarball = `${sdk.name.replace(/^@/, "").replace("/", "-")}-${sdk.version}.tgz`;
    const pack = /^\(cd (\S+) && npm pack --pack-destination (\S+)\)$/.exec(commands[0]);
    expect({ first: commands[0], pack: pack !== null }).toEqual({ first: commands[0], pack: true });
    expect(path.resolve(ROOT, pack![1])).toBe(path.join(ROOT, "libs/sdk"));
    expect(sdk.scripts.prepack).toMatch(/build/);
    const install = commands.find((command) => command.startsWith("npm install"));
    expect(install?.split(/\s+/)[2]).toBe(`${pack![2]}/${tarball}`);
    // The registry name comes only as the line for once it is published, never as the command to run.
    expect(commands.some((command) => command.includes(`npm install ${sdk.name}`))).toBe(false);
  });
});

describe("the guides' examples against npm start", () => {
  const files = ["docs/get-started.md", "libs/sdk/README.md", ...fs.readdirSync(path.join(ROOT, "docs/guides")).map((file) => `docs/guides/${file}`)];
  const runnable = files.flatMap((file) =>
    codeBlocks(read(file))
      .filter((block) => ["bash", "sh", "ts", "typescript", "js"].includes(block.language))
      .map((block) => ({ file, code: block.code })),
  );

  it("reads contract, round, claim and webhook ids from the stack or the API's answers, never as a literal (the API gives them)", () => {
    const literal = /contractId(?:=|"\s*:\s*|:\s*)\d+|\/(?:rounds|claims|webhooks)\/\d+/;
    expect(runnable.filter(({ code }) => literal.test(code)).map(({ file, code }) => `${file}: ${literal.exec(code)![0]}`)).toEqual([]);
  });

  it("reads only facts .local/stack.json has", () => {
    // Every field of the file, typed: a field renamed in StackFile fails to compile here.
    const raffle = { kind: "ERC20", contractId: 1, raffle: "0x", ticket: "0x" } as const;
    const chain = { chainId: 31337, rpcUrl: "", wsUrl: "", exchange: "", factory: "", vrfCoordinator: "", priceToken: "", raffles: [raffle] };
    const stack: StackFile = {
      ...{ apiUrl: "", webUrl: "", consoleUrl: "", docsUrl: "", apiKey: "rk_", rpcUrl: "", chainId: 31337, databaseUrl: "", pgliteDir: "", pid: 1 },
      contracts: { exchange: "", raffleFactory: "", vrfCoordinator: "", priceToken: "", raffles: [raffle] },
      chains: [chain],
      merchant: { wallet: "", privateKey: "" },
      players: [{ address: "", privateKey: "" }],
      gaslessPlayer: { address: "", privateKey: "" },
    };
    const reads = runnable.flatMap(({ file, code }) =>
      [...code.matchAll(/require\("\.\/\.local\/stack\.json"\)((?:\.\w+|\[\d+\])+)/g)].map((match) => ({ file, path: match[1] })),
    );
    expect(reads.length).toBeGreaterThan(0);
    for (const { file, path: fields } of reads) {
      const value = [...fields.matchAll(/\.(\w+)|\[(\d+)\]/g)].reduce<unknown>(
        (object, [, key, index]) => (object as Record<string, unknown> | undefined)?.[key ?? index],
        stack,
      );
      expect({ file, fields, found: value !== undefined }).toEqual({ file, fields, found: true });
    }
  });

  it("names Hardhat's well-known accounts only in the roles the stack gives them (demo merchant, players)", () => {
    const roles = new Map<string, string>([[new Wallet(LOCAL_DEV_KEYS.demoMerchant).address.toLowerCase(), "demo merchant"]]);
    for (const index of STACK_PLAYER_INDEXES) roles.set(new Wallet(localDevPrivateKey(index)).address.toLowerCase(), "player");
    for (const { file, code } of runnable) {
      for (const [address] of code.matchAll(/0x[0-9a-fA-F]{40}\b/g)) {
        if (wellKnownDevAccountIndex(address) === undefined) continue;
        expect({ file, address, role: roles.get(address.toLowerCase()) ?? null }).toEqual({ file, address, role: expect.any(String) });
      }
      // Where a command creates the merchant's key, it is the stack's merchant.
      for (const [, merchant] of code.matchAll(/--merchant (0x[0-9a-fA-F]{40})/g)) expect(roles.get(merchant.toLowerCase())).toBe("demo merchant");
    }
  });

  it("calls the stack on the ports npm start uses by default", () => {
    const start = read("tools/stack/start.ts");
    const port = (setting: string) => Number(new RegExp(`process\\.env\\.${setting} \\?\\? (\\d+)`).exec(start)![1]);
    const chainPort = port("CHAIN_PORT");
    // The API, the player app, and the two chains (the second on CHAIN_PORT + 1).
    const ports = new Set([port("PORT"), port("WEB_PORT"), chainPort, chainPort + 1]);
    expect([...ports]).toEqual([3000, 5173, 8545, 8546]);
    for (const { file, code } of runnable) {
      for (const [, used] of code.matchAll(/127\.0\.0\.1:(\d+)/g))
        expect({ file, port: Number(used), stack: ports.has(Number(used)) }).toEqual({ file, port: Number(used), stack: true });
    }
  });
});
