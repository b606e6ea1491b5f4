/**
 * The indexer's operator commands, on the database the API uses (see resolveCliDatabase: DATABASE_URL, the running
 * local stack's database, or the embedded folder PGLITE_DIR):
 *
 *   npm run indexer -- reset --chain <id>                        # from the repository
 *   node dist/apps/api/src/cli/indexer.js reset --chain <id>     # compiled, in the runtime image
 *
 * `reset` forgets what was indexed from one chain (its raffles, rounds, tickets, prize claims, raw events, block hashes
 * and cursor; merchants, API keys and vouchers stay), for an index that no longer matches its chain: a reorg below the
 * undo window, or a node that restarted from genesis. The running API needs no restart: its indexer is made to step
 * down and indexes the chain again from the platform's deploy block.
 */
import { openDatabase } from "@raffle/db";
import { resetChainIndex, resetIndexedChain } from "@raffle/indexer";

import { resolveCliDatabase } from "./cli-database";

const USAGE = "usage: indexer reset --chain <id>";

/** A chain id as PostgreSQL stores it (int4): decimal digits only, 1 to 2147483647. */
function chainIdOption(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^\d{1,10}$/.test(raw)) return undefined;
  const chainId = Number(raw);
  return chainId >= 1 && chainId <= 2_147_483_647 ? chainId : undefined;
}

async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  const chainFlag = args.indexOf("--chain");
  const chainId = chainFlag >= 0 ? chainIdOption(args[chainFlag + 1]) : undefined;
  // Checked before opening the database: a typo must neither create an embedded database nor reset another chain.
  if (command !== "reset" || chainId === undefined) {
    console.error(chainFlag >= 0 && command === "reset" ? `indexer: --chain must be a chain id from 1 to 2147483647; ${USAGE}` : USAGE);
    return 2;
  }
  const target = await resolveCliDatabase(process.env);
  const dataSource = await openDatabase({ url: target.url, pgliteDir: target.pgliteDir }).catch((error: unknown) => {
    throw new Error(`cannot open ${target.description}: ${error instanceof Error ? error.message : String(error)}; ${target.hint}`);
  });
  console.error(`indexer: using ${target.description}`);
  try {
    const [{ events }] = await dataSource.query(`SELECT count(*)::int AS events FROM indexer_event WHERE chain_id = $1`, [chainId]);
    // An embedded folder belongs to no running API (the CLI would have used the stack's URL): nothing to fence.
    const { leadersEnded } = target.url
      ? await resetChainIndex(dataSource, chainId)
      : (await resetIndexedChain(dataSource, chainId), { leadersEnded: 0 });
    console.log(
      `reset the index of chain ${chainId}: ${events} indexed events forgotten` +
        (leadersEnded > 0
          ? `; the running indexer stepped down and indexes the chain again from its deploy block`
          : "; the next indexer run indexes it again"),
    );
    return 0;
  } finally {
    await dataSource.destroy();
  }
}

main()
  .then((code) => (process.exitCode = code))
  .catch((error: unknown) => {
    console.error(`indexer: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
