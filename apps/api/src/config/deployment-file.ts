import * as fs from "node:fs";
import { checksumAddress, deploymentPath, type PlatformDeployment } from "@raffle/chain/settings";
import { ConfigError } from "@raffle/config";

/** The contract addresses of a deployment, which must hold code on the chain; `signer` and `admin` are accounts. */
export const DEPLOYED_CONTRACT_FIELDS = ["exchange", "raffleFactory", "ticketDeployer", "vrfCoordinator"] as const;
const ACCOUNT_FIELDS = ["signer", "admin"] as const;

type Check = (value: unknown) => string | null;

const ZERO_ADDRESS = `0x${"0".repeat(40)}`;

function checksummedAddress(value: unknown): string | null {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(value)) return "must be a 0x-prefixed 20-byte address";
  if (value === ZERO_ADDRESS) return "must not be the zero address";
  const checksummed = checksumAddress(value);
  if (checksummed !== value) return `must be checksummed (EIP-55): ${checksummed}`;
  return null;
}

const CHECKS: Record<Exclude<keyof PlatformDeployment, "chainId" | "ignitionDeploymentId">, Check> = {
  ...(Object.fromEntries([...DEPLOYED_CONTRACT_FIELDS, ...ACCOUNT_FIELDS].map((field) => [field, checksummedAddress])) as Record<
    (typeof DEPLOYED_CONTRACT_FIELDS)[number] | (typeof ACCOUNT_FIELDS)[number],
    Check
  >),
  vrfKeyHash: (value) => (typeof value === "string" && /^0x[0-9a-fA-F]{64}$/.test(value) ? null : "must be a 0x-prefixed 32-byte hex string"),
  vrfSubscriptionId: (value) => (typeof value === "string" && /^\d{1,78}$/.test(value) ? null : "must be a decimal string"),
  vrfIsMock: (value) => (typeof value === "boolean" ? null : "must be true or false"),
  deployBlock: (value) => (Number.isSafeInteger(value) && (value as number) >= 0 ? null : "must be a block number (an integer >= 0)"),
  deployedAt: (value) => (typeof value === "string" && !Number.isNaN(Date.parse(value)) ? null : "must be an ISO 8601 time"),
};

/**
 * Reads and checks the platform's deployment record of `chainId`: the file in the setting `setting` (DEPLOYMENT_FILE,
 * or CHAIN_<id>_DEPLOYMENT_FILE), else `contracts/deployments/<chainId>.json`. Every field is checked (a file without
 * `exchange` would have the API sign vouchers no Exchange accepts), and every error names the file, how it was chosen,
 * and each bad field. Whether the contracts exist is checked on the chain.
 */
export function loadDeploymentFile(
  env: NodeJS.ProcessEnv,
  chainId: number,
  setting = "DEPLOYMENT_FILE",
): { deployment: PlatformDeployment; file: string } {
  const file = env[setting] || deploymentPath(chainId);
  const source = env[setting] ? `${setting} ${file}` : `deployment file ${file} (the default for chain ${chainId}; set ${setting} to use another)`;
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new ConfigError(
      `${source} cannot be read (${code}); deploy the platform with \`npm run deploy:platform\` or point ${setting} at its record`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigError(`${source} is not valid JSON`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new ConfigError(`${source} must hold a JSON object`);
  const record = parsed as Record<string, unknown>;
  const problems: string[] = [];
  if (!("chainId" in record)) problems.push('"chainId" is missing');
  else if (record.chainId !== chainId)
    problems.push(`"chainId" is ${JSON.stringify(record.chainId)}, but the file is configured for chain ${chainId}`);
  for (const [field, check] of Object.entries(CHECKS)) {
    if (!(field in record)) {
      problems.push(`"${field}" is missing`);
      continue;
    }
    const problem = check(record[field]);
    if (problem) problems.push(`"${field}" ${problem}`);
  }
  // Written by the Ignition deploy, absent from records written by other means.
  if ("ignitionDeploymentId" in record && (typeof record.ignitionDeploymentId !== "string" || record.ignitionDeploymentId === "")) {
    problems.push('"ignitionDeploymentId" must be a non-empty string when present');
  }
  if (problems.length > 0) throw new ConfigError(`${source} is invalid: ${problems.join("; ")}`);
  return { deployment: record as unknown as PlatformDeployment, file };
}
