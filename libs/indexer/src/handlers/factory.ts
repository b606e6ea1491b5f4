import { ContractFeature } from "@raffle/db";

import { ContractKind } from "../decode";
import { argString } from "../indexed-event";
import type { RegisteredContract } from "../registry";
import { onEvent, type SingleEventHandler } from "./handler";
import { insertContract } from "./shared";

/** The RaffleFactory's events: a merchant's raffle and its ticket contract become registered contracts. */

const RAFFLE_FEATURES = [ContractFeature.RANDOM, ContractFeature.ALLOWANCE, ContractFeature.PAUSABLE];

export const FACTORY_HANDLERS: SingleEventHandler[] = [
  onEvent({
    contract: ContractKind.FACTORY,
    event: "RaffleDeployed",
    writes: ["merchant", "contract"],
    webhook: "raffle.deployed",
    async project(deps, manager, event) {
      const { args, blockTimestamp: at, blockNumber } = event;
      const merchantWallet = argString(args, "merchant");
      const [{ id: merchantId }] = await manager.query(
        `INSERT INTO merchant (wallet, created_at, updated_at) VALUES ($1, $2, $2)
         ON CONFLICT (wallet) DO UPDATE SET wallet = EXCLUDED.wallet RETURNING id`,
        [merchantWallet, at],
      );
      const raffleAddress = argString(args, "raffle");
      const ticketAddress = argString(args, "ticket");
      const meta = await deps.tokens.read(ticketAddress, false);
      const raffleId = await insertContract(manager, deps.chainId, {
        address: raffleAddress,
        merchantId,
        title: `${meta.name || "Raffle"} raffle`,
        name: "Raffle",
        symbol: "",
        decimals: 0,
        contractType: null,
        features: RAFFLE_FEATURES,
        module: "RAFFLE",
        parameters: {
          timeLagBeforeRelease: argString(args, "timeLagBeforeRelease"),
          commission: argString(args, "commission"),
          schedule: deps.defaultSchedule,
          roundId: 0,
        },
        fromBlock: blockNumber,
        at,
        raffleContractId: null,
      });
      const ticketId = await insertContract(manager, deps.chainId, {
        address: ticketAddress,
        merchantId,
        title: meta.name,
        name: meta.name,
        symbol: meta.symbol,
        decimals: 0,
        contractType: "ERC721",
        features: [],
        module: "RAFFLE",
        parameters: {},
        fromBlock: blockNumber,
        at,
        raffleContractId: raffleId,
      });
      const registered: RegisteredContract[] = [
        { id: raffleId, address: raffleAddress, kind: ContractKind.RAFFLE, merchantId, fromBlock: blockNumber },
        { id: ticketId, address: ticketAddress, kind: ContractKind.TICKET, merchantId, fromBlock: blockNumber },
      ];
      for (const contract of registered) deps.registry.add(contract);
      // The message is about the new raffle, not the factory.
      return { registered, subject: { merchantId, contractId: raffleId } };
    },
  }),
];
