import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../../../..");
const TSC = require.resolve("typescript/bin/tsc", { paths: [ROOT] });

/**
 * The chain library as it would be after a contract change: the Raffle's TicketsPurchased renamed TicketsBought, and
 * the ticket's Transfer argument `to` renamed `recipient`; everything else is the real library.
 */
const RENAMED_CHAIN = `
import type { Raffle as CompiledRaffle, RaffleTicket as CompiledTicket, TypedContractEvent } from ${JSON.stringify(path.join(ROOT, "libs/chain/src/index"))};
export * from ${JSON.stringify(path.join(ROOT, "libs/chain/src/index"))};

type RenameKey<T, From extends string, To extends string> = { [K in keyof T as K extends From ? To : K]: T[K] };
type RenameArg<Event, From extends string, To extends string> =
  Event extends TypedContractEvent<infer I, infer O, infer Args> ? TypedContractEvent<I, O, RenameKey<Args, From, To>> : never;

export interface Raffle extends Omit<CompiledRaffle, "filters"> {
  filters: RenameKey<CompiledRaffle["filters"], "TicketsPurchased", "TicketsBought">;
}
export interface RaffleTicket extends Omit<CompiledTicket, "filters"> {
  filters: Omit<CompiledTicket["filters"], "Transfer"> & { Transfer: RenameArg<CompiledTicket["filters"]["Transfer"], "to", "recipient"> };
}
`;

/** Type-checks the purchase and ticket handlers against `chain` in place of @raffle/chain; the compiler's errors. */
function typecheckHandlersAgainst(chain: string): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "indexer-renamed-"));
  try {
    fs.writeFileSync(path.join(dir, "chain.ts"), chain);
    const base = JSON.parse(fs.readFileSync(path.join(ROOT, "tsconfig.base.json"), "utf8"));
    const paths = Object.fromEntries(
      Object.entries(base.compilerOptions.paths as Record<string, string[]>).map(([name, [target]]) => [name, [path.join(ROOT, target)]]),
    );
    paths["@raffle/chain"] = [path.join(dir, "chain.ts")];
    const config = {
      compilerOptions: { ...base.compilerOptions, noEmit: true, baseUrl: ROOT, paths, typeRoots: [path.join(ROOT, "node_modules/@types")] },
      files: ["raffle-purchases.ts", "ticket.ts"].map((file) => path.join(__dirname, file)),
    };
    fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(config));
    try {
      execFileSync(process.execPath, [TSC, "-p", path.join(dir, "tsconfig.json")], { encoding: "utf8", stdio: "pipe" });
      return [];
    } catch (error) {
      return ((error as { stdout: string }).stdout ?? "").split("\n").filter((line) => line.includes("error TS"));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("the indexer's handlers against the contracts' events", () => {
  it("fail to compile when an event or an argument they read is renamed in the contract", () => {
    const errors = typecheckHandlersAgainst(RENAMED_CHAIN);
    const inFile = (file: string) => errors.filter((line) => line.includes(`handlers/${file}(`));
    expect(inFile("raffle-purchases.ts").join("\n")).toContain(`Type '"TicketsPurchased"' is not assignable`);
    expect(inFile("ticket.ts").join("\n")).toContain(`Argument of type '"to"' is not assignable`);
    // Nothing else broke: the errors are the renames', so the check itself is sound.
    expect(errors.length).toBe(inFile("raffle-purchases.ts").length + inFile("ticket.ts").length);
  }, 120_000);
});
