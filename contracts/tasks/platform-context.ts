import type { HardhatRuntimeEnvironment } from "hardhat/types";
import type { ContractTransactionResponse } from "ethers";
import type { Exchange, PlatformDeployment, RaffleFactory } from "@raffle/chain";

/**
 * What an administration task works on: the recorded deployment of the chain the network serves, checked against
 * that chain, and the acting account. Imported by task actions only (after a compile): it needs the bindings.
 */
export interface PlatformContext {
  hre: HardhatRuntimeEnvironment;
  chainId: number;
  local: boolean;
  record: PlatformDeployment;
  from: string;
  exchange: Exchange;
  factory: RaffleFactory;
}

export async function platformContext(hre: HardhatRuntimeEnvironment, from?: string): Promise<PlatformContext> {
  const { Exchange__factory, RaffleFactory__factory, deploymentPath, readDeployment } = await import("@raffle/chain");
  const { actor, chainContext } = await import("../deploy/context");
  const context = await chainContext(hre);
  let record: PlatformDeployment;
  try {
    record = readDeployment(context.chainId);
  } catch {
    throw new Error(
      `no platform deployment recorded for chain ${context.chainId} (network ${context.network}) at ${deploymentPath(context.chainId)}: ` +
        "wrong --network, or deploy first (npm run deploy:platform)",
    );
  }
  for (const [name, address] of [
    ["Exchange", record.exchange],
    ["RaffleFactory", record.raffleFactory],
  ] as const) {
    if ((await hre.ethers.provider.getCode(address)) === "0x") {
      throw new Error(
        `the record says ${name} is at ${address}, but network ${context.network} has no contract there: wrong network, or a reset chain`,
      );
    }
  }
  const acting = await actor(hre, "DEPLOYER", from);
  if (!context.local && !acting.keyConfigured) {
    throw new Error(
      `no key to act with on network ${context.network}: set DEPLOYER_PRIVATE_KEY (\`npx hardhat vars set DEPLOYER_PRIVATE_KEY\`) or DEPLOYER_KEYSTORE_FILE, or pass --from`,
    );
  }
  const signer = await hre.ethers.getSigner(acting.address);
  return {
    hre,
    chainId: context.chainId,
    local: context.local,
    record,
    from: acting.address,
    exchange: Exchange__factory.connect(record.exchange, signer),
    factory: RaffleFactory__factory.connect(record.raffleFactory, signer),
  };
}

type RoleHolder = { hasRole(role: string, account: string): Promise<boolean>; getAddress(): Promise<string> };

/** Refuses, before anything is sent, when the acting account lacks `roleName` on `contract`. */
export async function requireRole(ctx: PlatformContext, contract: RoleHolder, contractName: string, roleName: string, role: string): Promise<void> {
  if (!(await contract.hasRole(role, ctx.from))) {
    throw new Error(
      `${ctx.from} lacks ${roleName} on ${contractName} ${await contract.getAddress()}: run this with an account that holds it (--from)`,
    );
  }
}

/** Simulates, then sends and waits: a call that would revert is refused with the contract's own error name. */
export async function send(what: string, simulate: () => Promise<unknown>, sendTx: () => Promise<ContractTransactionResponse>): Promise<string> {
  try {
    await simulate();
  } catch (error) {
    const reason = (error as { revert?: { name: string; args: unknown[] } }).revert;
    throw new Error(`${what} would revert: ${reason ? `${reason.name}(${reason.args.join(", ")})` : (error as Error).message}`, {
      cause: error,
    });
  }
  const tx = await sendTx();
  await tx.wait();
  console.log(`${what}: done (tx ${tx.hash})`);
  return tx.hash;
}

/** Off local chains, refuses Hardhat's well-known accounts where someone's own key belongs. */
export async function refuseDevAccount(ctx: PlatformContext, what: string, address: string): Promise<void> {
  const { wellKnownDevAccountIndex } = await import("@raffle/chain");
  const index = wellKnownDevAccountIndex(address);
  if (!ctx.local && index !== undefined) throw new Error(`${what} ${address} is Hardhat's public dev account #${index}, whose key everyone knows`);
}
