import { Wallet } from "ethers";

/** A complete, well-formed deployment record with random addresses (no contract behind them). */
export function deploymentRecord(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const address = () => Wallet.createRandom().address;
  return {
    chainId: 31337,
    exchange: address(),
    raffleFactory: address(),
    ticketDeployer: address(),
    vrfCoordinator: address(),
    vrfKeyHash: `0x${"11".repeat(32)}`,
    vrfSubscriptionId: "1",
    vrfIsMock: true,
    signer: address(),
    admin: address(),
    deployBlock: 1,
    deployedAt: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}
