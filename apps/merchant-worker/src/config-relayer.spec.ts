import * as os from "node:os";
import { inspect } from "node:util";
import { Wallet } from "ethers";
import { LOCAL_DEV_KEYS } from "@raffle/chain";

import { loadWorkerConfig } from "./config";

const base = { API_KEY: "rk_abc", MERCHANT_PRIVATE_KEY: LOCAL_DEV_KEYS.demoMerchant };
const EXCHANGE = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

function problem(env: Record<string, string>): string {
  try {
    loadWorkerConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the settings were accepted");
}

describe("loadWorkerConfig: the relayer", () => {
  it("relays by default on a dev chain whose Exchange is known, paying with the merchant key, named after the host", () => {
    const config = loadWorkerConfig({ ...base, EXCHANGE_ADDRESS: EXCHANGE.toLowerCase() });
    expect(config.chains[0].exchange).toBe(EXCHANGE);
    expect(config.relayer).toMatchObject({ relayerId: `relayer-${os.hostname().toLowerCase()}`, pollIntervalMs: 500, maxInFlight: 100 });
    expect(config.relayer!.key.reveal()).toBe(LOCAL_DEV_KEYS.demoMerchant);
  });

  it("does not relay by default on a dev chain without a known Exchange, and refuses to relay blind when asked", () => {
    expect(loadWorkerConfig(base).relayer).toBeUndefined();
    expect(problem({ ...base, RELAYER_ENABLED: "true" })).toBe("EXCHANGE_ADDRESS is required while RELAYER_ENABLED is on");
  });

  it("off the dev chains, needs RELAYER_ENABLED said, and each relayed chain's Exchange, by name", () => {
    const remote = { ...base, CHAIN_IDS: "8453,137", CHAIN_8453_RPC_URL: "https://a.example", CHAIN_137_RPC_URL: "https://b.example" };
    expect(problem(remote)).toBe("RELAYER_ENABLED is required (chain 8453 is not a local dev chain: relay gasless purchases or not)");
    expect(problem({ ...remote, RELAYER_ENABLED: "yes", CHAIN_137_EXCHANGE_ADDRESS: EXCHANGE })).toBe(
      "EXCHANGE_ADDRESS (or CHAIN_8453_EXCHANGE_ADDRESS) is required while RELAYER_ENABLED is on",
    );
    expect(problem({ ...remote, RELAYER_ENABLED: "maybe" })).toBe('RELAYER_ENABLED must be true or false, got "maybe"');
    expect(loadWorkerConfig({ ...remote, RELAYER_ENABLED: "false" }).relayer).toBeUndefined();
    const relayed = loadWorkerConfig({ ...remote, RELAYER_ENABLED: "true", EXCHANGE_ADDRESS: EXCHANGE, RELAYER_ID: "relayer-eu-1" });
    expect(relayed.chains.map((chain) => chain.exchange)).toEqual([EXCHANGE, EXCHANGE]);
    expect(relayed.relayer!.relayerId).toBe("relayer-eu-1");
  });

  it("pays with RELAYER_PRIVATE_KEY when given, which never shows", () => {
    const own = Wallet.createRandom().privateKey;
    const config = loadWorkerConfig({ ...base, EXCHANGE_ADDRESS: EXCHANGE, RELAYER_PRIVATE_KEY: own, RELAYER_MAX_IN_FLIGHT: "20" });
    expect(config.relayer!.key.reveal()).toBe(own);
    expect(config.relayer!.maxInFlight).toBe(20);
    expect(JSON.stringify(config.relayer)).not.toContain(own.slice(2));
    expect(inspect(config.relayer)).not.toContain(own.slice(2));
  });

  it("refuses a malformed Exchange address, relayer id or key by name, without echoing the key", () => {
    expect(problem({ ...base, EXCHANGE_ADDRESS: EXCHANGE, RELAYER_ID: "relayer one" })).toBe(
      'RELAYER_ID must be 1 to 64 characters of A-Z a-z 0-9 . _ : -, got "relayer one"',
    );
    expect(problem({ ...base, EXCHANGE_ADDRESS: "0x1234" })).toBe('EXCHANGE_ADDRESS must be a 0x-prefixed 20-byte address, got "0x1234"');
    const message = problem({ ...base, EXCHANGE_ADDRESS: EXCHANGE, RELAYER_PRIVATE_KEY: "0xfeedbeef" });
    expect(message).toContain("RELAYER_PRIVATE_KEY is not a private key");
    expect(message).not.toContain("feedbeef");
  });
});
