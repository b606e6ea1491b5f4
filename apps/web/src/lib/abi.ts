import { parseAbi } from "viem";

import { PURCHASE_ERRORS_ABI } from "../../../../libs/chain/src/generated/app-abis";
import { EXCHANGE_CLIENT_ABI, RAFFLE_CLIENT_ABI } from "../../../../libs/chain/src/generated/client-abis";

/**
 * The Exchange's purchase with the errors a purchase can revert with, from the Exchange, the raffle it calls and the
 * price token, so a refusal is decoded into its name and then into a sentence. Both lists are generated from the
 * compiled contracts (`npm --workspace libs/chain run abi:generate`).
 */
export const PURCHASE_ABI = parseAbi([...EXCHANGE_CLIENT_ABI, ...PURCHASE_ERRORS_ABI]);

/**
 * What a ticket holder calls and reads on the raffle (libs/chain's Raffle client ABI, generated): batch claims and
 * refunds, the round views (`getRound`, `getWinners`) and every error a player's call can revert with.
 */
export const RAFFLE_ABI = parseAbi(RAFFLE_CLIENT_ABI);
