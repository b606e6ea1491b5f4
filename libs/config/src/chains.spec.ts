import { chainEnvs } from "./chains";
import { ConfigError } from "./env";

const options = { defaultChainId: 31337, unshared: ["RPC_URL", "DEPLOYMENT_FILE"] };

describe("chainEnvs", () => {
  it("reads today's one-chain environment as a list of one, with plain names", () => {
    const [chain, ...rest] = chainEnvs({ CHAIN_ID: "8453", RPC_URL: "http://node" }, options);
    expect(rest).toEqual([]);
    expect(chain.chainId).toBe(8453);
    expect(chain.name("RPC_URL")).toBe("RPC_URL");
    expect(chainEnvs({}, options)[0].chainId).toBe(31337);
  });

  it("lists CHAIN_IDS, each chain reading CHAIN_<id>_<SETTING> first and shared settings otherwise", () => {
    const env = { CHAIN_IDS: "31337, 8453", CHAIN_8453_SIGNER_PRIVATE_KEY: "k", SIGNER_PRIVATE_KEY: "shared" };
    const chains = chainEnvs(env, options);
    expect(chains.map((chain) => chain.chainId)).toEqual([31337, 8453]);
    expect(chains[1].name("SIGNER_PRIVATE_KEY")).toBe("CHAIN_8453_SIGNER_PRIVATE_KEY");
    expect(chains[0].name("SIGNER_PRIVATE_KEY")).toBe("SIGNER_PRIVATE_KEY");
    // An unshared setting is always read per chain when several are listed, so "is required" names the right one.
    expect(chains[0].name("RPC_URL")).toBe("CHAIN_31337_RPC_URL");
  });

  it("lets a list of one chain keep plain names for every setting", () => {
    const [chain] = chainEnvs({ CHAIN_IDS: "8453", RPC_URL: "http://node" }, options);
    expect(chain.name("RPC_URL")).toBe("RPC_URL");
  });

  it("reports every problem at once, each naming its variable", () => {
    let message = "";
    try {
      chainEnvs({ CHAIN_IDS: "1,x,1", CHAIN_ID: "1", RPC_URL: "http://node", CHAIN_5_RPC_URL: "http://other" }, { ...options });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/CHAIN_ID and CHAIN_IDS are both set/);
    expect(message).toMatch(/CHAIN_IDS must list chain ids .*"x"/);
    expect(message).toMatch(/CHAIN_IDS lists chain 1 twice/);
    expect(message).toMatch(/CHAIN_5_RPC_URL is set, but chain 5 is not in CHAIN_IDS/);
    // "1,x,1" is one chain once the problems are named: RPC_URL alone is not the complaint.
    expect(message).not.toMatch(/RPC_URL cannot be shared/);
    expect(() => chainEnvs({ CHAIN_IDS: "1,2", RPC_URL: "http://node" }, options)).toThrow(/RPC_URL cannot be shared by several chains/);
    expect(() => chainEnvs({ CHAIN_ID: "0" }, options)).toThrow(/CHAIN_ID must list chain ids/);
  });

  it("refuses per-chain variables without CHAIN_IDS instead of ignoring them", () => {
    expect(() => chainEnvs({ CHAIN_ID: "8453", CHAIN_8453_RPC_URL: "https://node" }, options)).toThrow(
      "CHAIN_8453_RPC_URL is set, but CHAIN_IDS is not: per-chain settings are read only for the chains CHAIN_IDS lists (set CHAIN_IDS=8453, or use RPC_URL)",
    );
    expect(() => chainEnvs({ CHAIN_31337_INDEXER_CONFIRMATIONS: "3" }, options)).toThrow(
      /CHAIN_31337_INDEXER_CONFIRMATIONS is set, but CHAIN_IDS is not/,
    );
    // An empty one is unset, as everywhere else.
    expect(chainEnvs({ CHAIN_8453_RPC_URL: "" }, options)[0].chainId).toBe(31337);
  });
});
