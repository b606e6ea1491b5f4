/**
 * docs/reference/settings.md: every setting of the API and the merchant worker, its default and its meaning. Names and
 * defaults come from the apps' zod schemas (each parsed with nothing given); meanings from setting-meanings.ts.
 */
import { formatEther } from "ethers";
import type { z } from "zod";
import { LOCAL_CHAIN_ID, LOCAL_CHAIN_IDS } from "@raffle/chain";
import type { ChainEnv } from "@raffle/config";

import { API_SETTINGS, KEY_SETTINGS, chainSettings as apiChainSettings } from "../../apps/api/src/config/api-config";
import { PLAYER_SETTINGS } from "../../apps/api/src/config/player-config";
import { WEBHOOK_SETTINGS } from "../../apps/api/src/config/webhook-config";
import { MERCHANT_KEY_SETTINGS, WORKER_SETTINGS, chainSettings as workerChainSettings } from "../../apps/merchant-worker/src/config";
import { API_SETTING_MEANINGS, WORKER_SETTING_MEANINGS } from "./setting-meanings";

type Shape = Record<string, z.ZodType>;

/** A setting as the page shows it. */
export interface SettingRow {
  name: string;
  defaultText: string;
  perChain: boolean;
}

/** Settings read outside the zod shapes (chain lists, files, a key that may come from a file), with their defaults. */
const API_OTHER: SettingRow[] = [
  { name: "CHAIN_IDS", defaultText: "—", perChain: false },
  { name: "CHAIN_ID", defaultText: `\`${LOCAL_CHAIN_ID}\``, perChain: false },
  { name: "DEPLOYMENT_FILE", defaultText: "`contracts/deployments/<chain id>.json`", perChain: true },
  { name: "WEBHOOK_ENCRYPTION_KEY", defaultText: "a dev key on local chains only, else required", perChain: false },
  { name: "WEBHOOK_ENCRYPTION_KEY_FILE", defaultText: "—", perChain: false },
];
const WORKER_OTHER: SettingRow[] = [
  { name: "CHAIN_IDS", defaultText: "—", perChain: false },
  { name: "CHAIN_ID", defaultText: `\`${LOCAL_CHAIN_ID}\``, perChain: false },
  // Its default depends on the chains and their Exchange (apps/merchant-worker/src/config.ts relayerEnabledSetting).
  { name: "RELAYER_ENABLED", defaultText: "`true` when every chain is a dev chain whose Exchange is known, else required", perChain: false },
];

/** How a default reads in the table, with milliseconds and seconds also in words. */
function describeValue(name: string, value: unknown): string {
  if (value === undefined) return "—";
  if (typeof value === "bigint" && name.endsWith("_ETH")) return `\`${formatEther(value)}\``;
  if (value === "") return "empty";
  const text = `\`${String(value)}\``;
  if (typeof value === "number" && name.endsWith("_MS") && value >= 1_000) return `${text} (${duration(value / 1_000)})`;
  if (typeof value === "number" && name.endsWith("_SECONDS") && value >= 60) return `${text} (${duration(value)})`;
  return text;
}

function duration(seconds: number): string {
  const units: Array<[number, string]> = [
    [86_400, "d"],
    [3_600, "h"],
    [60, "min"],
    [1, "s"],
  ];
  const [size, unit] = units.find(([size]) => seconds % size === 0 && seconds >= size) ?? [1, "s"];
  return `${seconds / size} ${unit}`;
}

/** What a schema answers when nothing is given: its default, "—" when optional, "required" otherwise. */
export function defaultOf(name: string, schema: z.ZodType): string {
  const parsed = schema.safeParse(undefined);
  return parsed.success ? describeValue(name, parsed.data) : "required";
}

function rowsOf(shape: Shape, perChain = false): SettingRow[] {
  return Object.entries(shape).map(([name, schema]) => ({ name, defaultText: defaultOf(name, schema), perChain }));
}

/** Per-chain settings whose defaults differ by chain: each distinct default with the chains it holds for. */
function perChainRows(shapes: Array<{ label: string; shape: Shape }>): SettingRow[] {
  const names = Object.keys(shapes[0].shape);
  return names.map((name) => {
    const byDefault = new Map<string, string[]>();
    for (const { label, shape } of shapes) {
      const text = defaultOf(name, shape[name]);
      byDefault.set(text, [...(byDefault.get(text) ?? []), label]);
    }
    const defaultText =
      byDefault.size === 1 ? [...byDefault.keys()][0] : [...byDefault].map(([text, labels]) => `${text} ${labels.join(" and ")}`).join("; ");
    return { name, defaultText, perChain: true };
  });
}

const chainEnv = (chainId: number): ChainEnv => ({ chainId, name: (setting) => setting });
const OTHER_CHAIN = 8453;

export function apiSettingRows(): SettingRow[] {
  const chainRows = perChainRows([
    { label: `on ${LOCAL_CHAIN_ID}`, shape: apiChainSettings(LOCAL_CHAIN_ID) },
    ...LOCAL_CHAIN_IDS.filter((id) => id !== LOCAL_CHAIN_ID).map((id) => ({ label: `on ${id}`, shape: apiChainSettings(id) })),
    { label: "on other chains", shape: apiChainSettings(OTHER_CHAIN) },
  ]);
  return [
    ...rowsOf(API_SETTINGS),
    ...chainRows,
    ...rowsOf({ ...KEY_SETTINGS.SIGNER, ...KEY_SETTINGS.SIGNER_NEXT }, true),
    ...rowsOf(PLAYER_SETTINGS),
    ...rowsOf(WEBHOOK_SETTINGS),
    ...API_OTHER,
  ];
}

export function workerSettingRows(): SettingRow[] {
  const devChain = LOCAL_CHAIN_IDS[0];
  const chainRows = perChainRows([
    { label: `on a lone dev chain (${LOCAL_CHAIN_IDS.join(" or ")})`, shape: workerChainSettings(chainEnv(devChain), true) },
    { label: "on a dev chain among several", shape: workerChainSettings(chainEnv(devChain), false) },
    { label: "on other chains", shape: workerChainSettings(chainEnv(OTHER_CHAIN), true) },
  ]);
  return [...rowsOf(WORKER_SETTINGS), ...chainRows, ...rowsOf(MERCHANT_KEY_SETTINGS), ...WORKER_OTHER];
}

/** Settings without a meaning, and meanings of no setting: what the drift test reports. */
export function meaningProblems(): string[] {
  const problems: string[] = [];
  for (const [app, rows, meanings] of [
    ["API", apiSettingRows(), API_SETTING_MEANINGS],
    ["merchant worker", workerSettingRows(), WORKER_SETTING_MEANINGS],
  ] as const) {
    const names = new Set(rows.map((row) => row.name));
    for (const name of names) if (!meanings[name]) problems.push(`${app} setting ${name} has no meaning in tools/docs/setting-meanings.ts`);
    for (const name of Object.keys(meanings)) if (!names.has(name)) problems.push(`${app} meaning of ${name}: the ${app} reads no such setting`);
  }
  return problems;
}

function table(rows: SettingRow[], meanings: Record<string, string>): string {
  const sorted = [...rows].sort((a, b) => a.name.localeCompare(b.name));
  const lines = ["| Setting | Default | Per chain | Meaning |", "|---|---|---|---|"];
  for (const row of sorted) {
    const meaning = (meanings[row.name] ?? "").replace(/\|/g, "\\|");
    lines.push(`| \`${row.name}\` | ${row.defaultText} | ${row.perChain ? "yes" : ""} | ${meaning} |`);
  }
  return lines.join("\n");
}

export function settingsPage(): string {
  return `# Settings reference

<!-- Generated by \`npm run docs:generate\` from the apps' settings schemas (apps/api/src/config,
apps/merchant-worker/src/config.ts) and tools/docs/setting-meanings.ts. Do not edit: a test fails when it drifts. -->

Every environment variable the API and the merchant worker read, with its default. Both apps read them the same way
(\`libs/config\`): an empty variable counts as unset; every bad variable is reported at start in one line, each by name,
and no message quotes a URL, a key or a password. "Per chain": with \`CHAIN_IDS\` set, the setting may be given to one
chain as \`CHAIN_<id>_<SETTING>\` (\`RPC_URL\`, \`INDEXER_WS_URL\` and \`DEPLOYMENT_FILE\` must be: they are never shared).
"—" means unset by default; "required" means the app does not start without it.

The deployer's settings (Hardhat tasks) are in the [deployer guide](../guides/deployer.md); the local stack's
(\`npm start\`) in [get started](../get-started.md).

## API (\`apps/api\`, with its indexer and webhook delivery)

${table(apiSettingRows(), API_SETTING_MEANINGS)}

## Merchant worker (\`apps/merchant-worker\`)

${table(workerSettingRows(), WORKER_SETTING_MEANINGS)}
`;
}
