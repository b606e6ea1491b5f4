/** One chain the app offers: its id, a name for people, and the node the page reads it through. */
export interface ChainSetting {
  id: number;
  name: string;
  rpcUrl: string;
  /** Native currency symbol (ETH on the local chains). */
  symbol?: string;
  /** The platform's RaffleFactory on this chain: the console deploys raffles through it and reads the draw budget. */
  factory?: string;
}

/** Where the API and the chains are: read at run time, so one build of these static files serves every environment. */
export interface RuntimeConfig {
  apiUrl: string;
  chains: ChainSetting[];
}

function isConfig(value: unknown): value is RuntimeConfig {
  const config = value as RuntimeConfig;
  return (
    typeof config?.apiUrl === "string" &&
    Array.isArray(config.chains) &&
    config.chains.length > 0 &&
    config.chains.every((chain) => Number.isInteger(chain.id) && typeof chain.name === "string" && typeof chain.rpcUrl === "string")
  );
}

/**
 * `config.json` next to index.html (written by whoever serves the files: `npm start`, the tests, a deployment), or
 * else the build-time `VITE_API_URL` and `VITE_CHAINS` (JSON). Nothing is hard-coded.
 */
export async function loadRuntimeConfig(url = "./config.json"): Promise<RuntimeConfig> {
  const response = await fetch(url, { cache: "no-store" }).catch(() => null);
  if (response?.ok) {
    const value: unknown = await response.json().catch(() => null);
    if (isConfig(value)) return { ...value, apiUrl: value.apiUrl.replace(/\/$/, "") };
  }
  const fromBuild = { apiUrl: import.meta.env.VITE_API_URL, chains: JSON.parse(import.meta.env.VITE_CHAINS ?? "null") };
  if (isConfig(fromBuild)) return fromBuild;
  throw new Error("This page has no configuration: config.json (apiUrl, chains) is missing or incomplete.");
}
