import { parseAbi } from "viem";

import { CONSOLE_FACTORY_ABI, CONSOLE_RAFFLE_ABI as CONSOLE_RAFFLE_LINES } from "../../../../libs/chain/src/generated/app-abis";
import { ERC20_CLIENT_ABI } from "../../../../libs/chain/src/generated/client-abis";

/**
 * What the console's wallet calls: the factory's deployRaffle and draw budget, the raffle's round rules, startRound,
 * pause and unpause, with the errors they can revert with, decoded into sentences (messages.ts). Generated from the
 * compiled contracts (`npm --workspace libs/chain run abi:generate`): a renamed function or argument fails the console's typecheck.
 */
export const FACTORY_ABI = parseAbi(CONSOLE_FACTORY_ABI);

export const CONSOLE_RAFFLE_ABI = parseAbi(CONSOLE_RAFFLE_LINES);

/** A price token's decimals and symbol (any ERC-20). */
export const ERC20_METADATA_ABI = parseAbi(ERC20_CLIENT_ABI);
