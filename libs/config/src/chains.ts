import { ConfigError } from "./env";

type Env = NodeJS.ProcessEnv;

/** How one chain's settings are read from the environment. */
export interface ChainEnv {
  chainId: number;
  /**
   * The variable that holds `setting` for this chain: `CHAIN_<id>_<setting>` when it is set (or when the setting
   * cannot be shared and several chains are configured), else the plain `<setting>`, which all chains share.
   */
  name(setting: string): string;
}

export interface ChainEnvOptions {
  /** The chain of a one-chain environment without CHAIN_ID. */
  defaultChainId: number;
  /** Settings that name one chain's node or records (RPC_URL, ...): never shared when several chains are configured. */
  unshared: readonly string[];
}

const PER_CHAIN = /^CHAIN_(\d+)_([A-Z0-9_]+)$/;

/**
 * The chains an app serves. `CHAIN_IDS=31337,8453` lists them, and `CHAIN_<id>_<SETTING>` gives one chain its own value
 * of any setting; without CHAIN_IDS, today's one-chain environment (CHAIN_ID and plain settings) is a list of one.
 * Every problem is reported at once, each naming its variable.
 */
export function chainEnvs(env: Env, options: ChainEnvOptions): ChainEnv[] {
  const listed = env.CHAIN_IDS?.trim();
  if (!listed) {
    // Per-chain variables are read only with CHAIN_IDS: set without it, they would be ignored without a word.
    const perChain = Object.keys(env).filter((variable) => PER_CHAIN.test(variable) && env[variable]);
    if (perChain.length > 0) {
      throw new ConfigError(
        perChain
          .map((variable) => {
            const [, chainId, setting] = PER_CHAIN.exec(variable)!;
            return `${variable} is set, but CHAIN_IDS is not: per-chain settings are read only for the chains CHAIN_IDS lists (set CHAIN_IDS=${chainId}, or use ${setting})`;
          })
          .join("; "),
      );
    }
    const chainId = chainIdValue(env.CHAIN_ID, "CHAIN_ID") ?? options.defaultChainId;
    return [{ chainId, name: (setting) => setting }];
  }
  const problems: string[] = [];
  if (env.CHAIN_ID) problems.push("CHAIN_ID and CHAIN_IDS are both set: keep CHAIN_IDS and give each chain's settings as CHAIN_<id>_<SETTING>");
  const chainIds: number[] = [];
  for (const entry of listed.split(",").map((part) => part.trim())) {
    try {
      const chainId = chainIdValue(entry, "CHAIN_IDS")!;
      if (chainIds.includes(chainId)) problems.push(`CHAIN_IDS lists chain ${chainId} twice`);
      else chainIds.push(chainId);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  const several = chainIds.length > 1;
  if (several) {
    for (const setting of options.unshared) {
      if (env[setting]) problems.push(`${setting} cannot be shared by several chains: set CHAIN_<id>_${setting} for each of CHAIN_IDS instead`);
    }
  }
  for (const variable of Object.keys(env)) {
    const match = PER_CHAIN.exec(variable);
    if (match && env[variable] && !chainIds.includes(Number(match[1])))
      problems.push(`${variable} is set, but chain ${match[1]} is not in CHAIN_IDS (${listed})`);
  }
  if (problems.length > 0) throw new ConfigError(problems.join("; "));
  return chainIds.map((chainId) => ({
    chainId,
    name: (setting) => {
      const own = `CHAIN_${chainId}_${setting}`;
      if (env[own] || (several && options.unshared.includes(setting))) return own;
      return setting;
    },
  }));
}

function chainIdValue(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new ConfigError(`${name} must list chain ids (integers >= 1), got "${raw}"`);
  return value;
}
