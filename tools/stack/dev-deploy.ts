/**
 * One fresh deployment of the demo on a running local chain, for `npm run dev`: a process of its own, so it deploys
 * the bytecode the last compile generated (a long-running process keeps the bindings it loaded first). Deploys on
 * every chain given, side by side (the first one also gets the three-winner and the item raffles, as in `npm start`), and prints one
 * line, `DEPLOYED <json>`: a DemoDeployment per chain, in their order.
 *
 *   ts-node stack/dev-deploy.ts <rpcUrl> [<rpcUrl>...]
 */
import { rpcProvider } from "@raffle/chain/testing";

import { deployDemo } from "./local-stack";

async function main(): Promise<void> {
  const providers = process.argv.slice(2).map((rpcUrl) => rpcProvider(rpcUrl));
  try {
    const demos = await Promise.all(providers.map((provider, index) => deployDemo(provider, { firstChain: index === 0 }, () => undefined)));
    process.stdout.write(`DEPLOYED ${JSON.stringify(demos, (_key, value) => (typeof value === "bigint" ? value.toString() : value))}\n`);
  } finally {
    providers.forEach((provider) => provider.destroy());
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`deploying the demo failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
