/**
 * `npm run deploy:rehearse -- --rpc-url http://127.0.0.1:8545 --deployer 0x...`: readies a local development node
 * (Hardhat's or anvil, with any chain id) for a rehearsal of the production deploy: CreateX at its canonical address, a
 * VRF v2.5 coordinator (Chainlink's mock), a subscription owned and funded for the deployer, and gas money. Refuses a
 * URL that is not on this machine and a node that is not a development node. Prints the settings of the deploy.
 */
import { parseArgs } from "node:util";
import { RehearsalRefused, prepareRehearsal, type RehearsalChain } from "@raffle/chain/testing";

const USAGE = "usage: npm run deploy:rehearse -- --rpc-url http://127.0.0.1:8545 --deployer <the deployer's address> [--ether 100]";

/** The deploy command with the rehearsal's settings, as `npm run deploy:platform` reads them (network `rehearsal`). */
export function deployCommand(rpcUrl: string, chain: RehearsalChain): string {
  return [
    `REHEARSAL_RPC_URL=${rpcUrl}`,
    `REHEARSAL_CHAIN_ID=${chain.chainId}`,
    `VRF_COORDINATOR=${chain.vrfCoordinator}`,
    `VRF_KEY_HASH=${chain.vrfKeyHash}`,
    `VRF_SUBSCRIPTION_ID=${chain.vrfSubscriptionId}`,
    "SIGNER_ADDRESS=<the voucher signer's address>",
    "npm run deploy:platform -- --network rehearsal",
  ].join(" ");
}

export async function main(argv: string[], write: (line: string) => void): Promise<number> {
  let values: { "rpc-url"?: string; deployer?: string; ether?: string };
  try {
    ({ values } = parseArgs({ args: argv, options: { "rpc-url": { type: "string" }, deployer: { type: "string" }, ether: { type: "string" } } }));
  } catch (error) {
    write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const rpcUrl = values["rpc-url"];
  if (!rpcUrl || !values.deployer || !/^0x[0-9a-fA-F]{40}$/.test(values.deployer) || (values.ether && !/^\d+(\.\d+)?$/.test(values.ether))) {
    write(USAGE);
    return 2;
  }
  try {
    const chain = await prepareRehearsal(rpcUrl, values.deployer, values.ether);
    write(
      [
        `Rehearsal ready on chain ${chain.chainId} (${rpcUrl}):`,
        `  CreateX           ${chain.createX}`,
        `  VRF coordinator   ${chain.vrfCoordinator}   (Chainlink's VRF v2.5 mock: draws are answered only by a local stand-in)`,
        `  VRF subscription  ${chain.vrfSubscriptionId}   (owned by the deployer, funded with 100 LINK)`,
        `  Deployer          ${chain.deployer}   (funded with ${values.ether ?? "100"} of the native coin)`,
        "Deploy as in production, with the deployer's keystore:",
        `  ${deployCommand(rpcUrl, chain)}`,
      ].join("\n"),
    );
    return 0;
  } catch (error) {
    write(
      error instanceof RehearsalRefused
        ? error.message
        : `the rehearsal could not be prepared: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`)).then((code) => process.exit(code));
}
