import { z } from "zod";

import type { ChainEnv } from "./chains";
import { ConfigError } from "./env";

/** Settings to read: each variable's name and its schema (see `setting`). */
export type SettingShape = Record<string, z.ZodType>;
export type Settings<Shape extends SettingShape> = z.output<z.ZodObject<Shape>>;

/**
 * Reads the variables `shape` names from `env`, each with its schema, in one zod parse. An empty value is unset, so a
 * default applies (`PORT=` in a compose file means "no port given"). Every bad variable is reported at once, in one
 * ConfigError with a problem per variable that starts with its name: an operator fixes the whole environment in one go.
 */
export function readSettings<Shape extends SettingShape>(env: NodeJS.ProcessEnv, shape: Shape): Settings<Shape> {
  const values = Object.fromEntries(Object.keys(shape).map((name) => [name, env[name] === "" ? undefined : env[name]]));
  const result = z.object(shape).safeParse(values);
  if (result.success) return result.data;
  throw new ConfigError(result.error.issues.map((issue) => `${issue.path.map(String).join(".")} ${issue.message}`));
}

/**
 * readSettings for one chain: `shape` names settings (RPC_URL, ...), each read from the chain's own variable for it
 * (RPC_URL, or CHAIN_<id>_RPC_URL), so that messages name the variable to fix. Answers the values by setting.
 */
export function readChainSettings<Shape extends SettingShape>(env: NodeJS.ProcessEnv, chain: ChainEnv, shape: Shape): Settings<Shape> {
  const byVariable = Object.fromEntries(Object.entries(shape).map(([setting, schema]) => [chain.name(setting), schema]));
  const values: Record<string, unknown> = readSettings(env, byVariable);
  return Object.fromEntries(Object.keys(shape).map((setting) => [setting, values[chain.name(setting)]])) as Settings<Shape>;
}
