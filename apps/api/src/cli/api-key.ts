/**
 * Merchant API keys from the command line, in the database the API uses (see resolveCliDatabase: DATABASE_URL, the
 * running local stack's database, or the embedded folder PGLITE_DIR, by default the stack's):
 *
 *   npm run api-key -- create --merchant <id|wallet> [--label <text>]   # prints the key once
 *   npm run api-key -- revoke <prefix|id>
 *   npm run api-key -- list --merchant <id|wallet>
 */
import { openDatabase, type ApiKeyEntity } from "@raffle/db";

import { ApiKeyService, isRevoked } from "../app/auth/api-key.service";
import { resolveCliDatabase } from "./cli-database";

/** active, revoked, or (rolled in the console) working until the end of its grace period. */
function state(key: ApiKeyEntity): string {
  if (!key.revokedAt) return "active";
  return isRevoked(key, Date.now()) ? "revoked" : `rolled, works until ${key.revokedAt.toISOString()}`;
}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
}

const USAGE = "usage: api-key create --merchant <id|wallet> [--label <text>] | revoke <prefix|id> | list --merchant <id|wallet>";

async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  // Before opening the database: a typo must not create an embedded database as a side effect.
  if (!["create", "revoke", "list"].includes(command)) {
    console.error(USAGE);
    return 2;
  }
  const target = await resolveCliDatabase(process.env);
  const dataSource = await openDatabase({ url: target.url, pgliteDir: target.pgliteDir }).catch((error: unknown) => {
    throw new Error(`cannot open ${target.description}: ${error instanceof Error ? error.message : String(error)}; ${target.hint}`);
  });
  console.error(`api-key: using ${target.description}`);
  try {
    const keys = new ApiKeyService(dataSource, { apiKeyCacheSeconds: 0 });
    switch (command) {
      case "create": {
        const merchant = option(args, "merchant");
        if (!merchant) throw new Error("create needs --merchant <id|wallet>");
        const issued = await keys.create(merchant, option(args, "label") ?? "");
        console.log(`created key ${issued.prefix} (id ${issued.id}) for merchant ${issued.merchantId}; it is shown only now:`);
        console.log(issued.key);
        return 0;
      }
      case "revoke": {
        const target = args[0];
        if (!target) throw new Error("revoke needs <prefix|id>");
        const revoked = await keys.revoke(target);
        console.log(revoked ? `revoked ${target}` : `no active key ${target}`);
        return revoked ? 0 : 1;
      }
      case "list": {
        const merchant = option(args, "merchant");
        if (!merchant) throw new Error("list needs --merchant <id|wallet>");
        for (const key of await keys.list(merchant)) {
          console.log(`${key.id}\t${key.prefix}\t${key.label}\t${key.createdAt.toISOString()}\t${state(key)}`);
        }
        return 0;
      }
      default:
        console.error(USAGE);
        return 2;
    }
  } finally {
    await dataSource.destroy();
  }
}

main()
  .then((code) => (process.exitCode = code))
  .catch((error: unknown) => {
    console.error(`api-key: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
