import * as fs from "node:fs";
import * as path from "node:path";
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { PLATFORM_MODULE_ID, PLATFORM_SETTINGS, type PlatformSettingName, type PlatformSettingsInput } from "@raffle/chain";

export interface PlatformParameters {
  input: PlatformSettingsInput;
  /** The parameters file read, if any (relative to the working directory, for messages). */
  file?: string;
  problems: string[];
}

/**
 * A network's platform settings: Ignition's parameters file for it (`ignition/parameters/<network>.json`, or
 * `--parameters <file>`), in Ignition's format `{ "RafflePlatform": { "signer": "0x...", ... } }`, with each setting's
 * environment variable (PLATFORM_SETTINGS) taking precedence. Unknown keys are reported: a typo must not silently
 * fall back to a default.
 */
export function readPlatformParameters(hre: HardhatRuntimeEnvironment, given?: string): PlatformParameters {
  const file = given ? path.resolve(given) : path.join(hre.config.paths.ignition, "parameters", `${hre.network.name}.json`);
  const problems: string[] = [];
  let fromFile: Record<string, unknown> = {};
  if (fs.existsSync(file)) {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, Record<string, unknown>>;
    fromFile = parsed[PLATFORM_MODULE_ID] ?? {};
    for (const key of Object.keys(fromFile).filter((name) => !(name in PLATFORM_SETTINGS))) {
      problems.push(`${path.relative(process.cwd(), file)}: unknown setting "${key}" (known: ${Object.keys(PLATFORM_SETTINGS).join(", ")})`);
    }
  } else if (given) {
    problems.push(`--parameters: ${given} does not exist`);
  }
  const input: PlatformSettingsInput = {};
  for (const name of Object.keys(PLATFORM_SETTINGS) as PlatformSettingName[]) {
    const fromEnv = process.env[PLATFORM_SETTINGS[name].env];
    input[name] = fromEnv !== undefined && fromEnv !== "" ? fromEnv : fromFile[name];
  }
  return { input, file: fs.existsSync(file) ? path.relative(process.cwd(), file) : undefined, problems };
}
