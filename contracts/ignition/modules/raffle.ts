import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";
import { TokenType } from "@raffle/chain";

export interface RoundPrice {
  tokenType: TokenType;
  token: string;
  tokenId: bigint;
  amount: bigint;
}

export interface RaffleModuleOptions {
  /** Module id: one per raffle, so deploying another raffle never resumes (and returns) an earlier one. */
  id: string;
  factory: string;
  config: { commission: bigint; timeLagBeforeRelease: bigint; ticketName: string; ticketSymbol: string };
  firstRound?: { price: RoundPrice; maxTicket: bigint };
}

/**
 * A merchant's raffle as a Hardhat Ignition module: `deployRaffle` on the platform's factory (sent by the merchant,
 * the deployment's default sender), the raffle and ticket addresses read from its RaffleDeployed event, and the first
 * round started. The journal makes a re-run finish an interrupted deployment instead of deploying a second raffle.
 */
export function raffleModule(options: RaffleModuleOptions) {
  return buildModule(options.id, (m) => {
    const factory = m.contractAt("RaffleFactory", options.factory, { id: "RaffleFactory" });
    const deployed = m.call(factory, "deployRaffle", [{ ...options.config }], { id: "DeployRaffle" });
    const raffleAddress = m.readEventArgument(deployed, "RaffleDeployed", "raffle", { id: "RaffleAddress" });
    const ticketAddress = m.readEventArgument(deployed, "RaffleDeployed", "ticket", { id: "TicketAddress" });
    const raffle = m.contractAt("Raffle", raffleAddress, { id: "Raffle" });
    const ticket = m.contractAt("RaffleTicket", ticketAddress, { id: "RaffleTicket" });
    if (options.firstRound) {
      // The raffle's own ticket is what each purchase mints.
      const ticketAsset = { tokenType: TokenType.ERC721, token: ticketAddress, tokenId: 0n, amount: 1n };
      m.call(raffle, "startRound", [ticketAsset, { ...options.firstRound.price }, options.firstRound.maxTicket], { id: "StartFirstRound" });
    }
    return { raffle, ticket };
  });
}
