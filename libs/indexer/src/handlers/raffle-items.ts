import type { EntityManager } from "typeorm";
import { tokenTypeName } from "@raffle/chain";

import { ContractKind } from "../decode";
import { argString } from "../indexed-event";
import type { RegisteredContract } from "../registry";
import { onEvent, type SingleEventHandler } from "./handler";
import { markRoundClaimedIfSettled, updateReturning, type AssetArgs } from "./shared";

/**
 * Item prizes (issue #53, `IItemPrizes`): the items a raffle's next rounds escrow, each round's escrow, and every move
 * of an item out of it: to its position's winner, back to the merchant, or a transfer that failed and left it where
 * it was. Positions count from 1 here, as the contract's item events do.
 */

interface ItemPrizeArgs {
  position: string;
  asset: AssetArgs;
}

/** An asset of an item event as stored and served: the token type by name, amounts and ids as decimal strings. */
export function itemAsset(asset: AssetArgs): { tokenType: string; token: string; tokenId: string; amount: string } {
  return { tokenType: tokenTypeName(BigInt(asset.tokenType)), token: asset.token, tokenId: asset.tokenId, amount: asset.amount };
}

/** The round row of a raffle's on-chain round id, or undefined when it is not indexed. */
async function roundRow(manager: EntityManager, raffle: RegisteredContract, roundId: string): Promise<number | undefined> {
  const [row] = await manager.query(`SELECT id FROM round WHERE contract_id = $1 AND round_id = $2`, [raffle.id, roundId]);
  return row?.id;
}

export const RAFFLE_ITEM_HANDLERS: SingleEventHandler[] = [
  onEvent({
    /** The items rounds started from now on escrow: kept in the raffle's parameters (`itemPrizes`) until changed. */
    contract: ContractKind.RAFFLE,
    event: "ItemPrizesSet",
    writes: ["contract"],
    async project(_deps, manager, event, raffle) {
      const items = (event.args.items as unknown as ItemPrizeArgs[]).map((item) => ({ position: Number(item.position), ...itemAsset(item.asset) }));
      await manager.query(`UPDATE contract SET parameters = jsonb_set(parameters, '{itemPrizes}', $2::jsonb), updated_at = $3 WHERE id = $1`, [
        raffle.id,
        JSON.stringify({ merchant: argString(event.args, "merchant"), items }),
        event.blockTimestamp,
      ]);
    },
  }),
  onEvent({
    /** The round's items, pulled from the merchant inside its startRound: one round_item row each, ESCROWED. */
    contract: ContractKind.RAFFLE,
    event: "ItemsEscrowed",
    writes: ["round_item"],
    async project(_deps, manager, event, raffle) {
      const id = await roundRow(manager, raffle, argString(event.args, "roundId"));
      if (id === undefined) return;
      const items = (event.args.items as unknown as ItemPrizeArgs[]).map((item) => ({ position: Number(item.position), ...itemAsset(item.asset) }));
      await manager.query(
        `INSERT INTO round_item (round_id, position, token_type, token, token_id, amount, merchant, status, tx_hash, indexed_block, created_at, updated_at)
         SELECT $1, v.position, v.token_type, v.token, v.token_id, v.amount, $2, 'ESCROWED', $3, $4, $5, $5
           FROM unnest($6::int[], $7::text[], $8::text[], $9::numeric[], $10::numeric[]) AS v(position, token_type, token, token_id, amount)
         ON CONFLICT (round_id, position) DO NOTHING`,
        [
          id,
          argString(event.args, "merchant"),
          event.txHash,
          event.blockNumber,
          event.blockTimestamp,
          items.map((item) => item.position),
          items.map((item) => item.tokenType),
          items.map((item) => item.token),
          items.map((item) => item.tokenId),
          items.map((item) => item.amount),
        ],
      );
    },
  }),
  onEvent({
    /** A winner's claim sent the position's item to the ticket's holder: the item and its RAFFLE_ITEM claim are done. */
    contract: ContractKind.RAFFLE,
    event: "ItemClaimed",
    writes: ["round_item", "claim", "round"],
    webhook: "item.claimed",
    async project(_deps, manager, event, raffle) {
      const { args, blockTimestamp: at } = event;
      const [item] = await updateReturning<{ round_id: number }>(
        manager,
        `UPDATE round_item i SET status = 'CLAIMED', claimed_by = $4, tx_hash = $5, failed_to = NULL, failed_reason = NULL, failed_tx_hash = NULL,
                updated_at = $6
           FROM round r WHERE r.id = i.round_id AND r.contract_id = $1 AND r.round_id = $2 AND i.position = $3
         RETURNING i.round_id`,
        [raffle.id, argString(args, "roundId"), Number(argString(args, "position")), argString(args, "winner"), event.txHash, at],
      );
      if (!item) return { subject: null };
      const [claim] = await updateReturning<{ id: number }>(
        manager,
        `UPDATE claim SET claim_status = 'REDEEMED', redeemed_tx_hash = $4, updated_at = $5
          WHERE contract_id = $1 AND round_id = $2 AND token_id = $3 AND claim_type = 'RAFFLE_ITEM' RETURNING id`,
        [raffle.id, item.round_id, argString(args, "ticketId"), event.txHash, at],
      );
      await markRoundClaimedIfSettled(manager, item.round_id, at);
      return { subject: { merchantId: raffle.merchantId, contractId: raffle.id, data: { claimId: claim?.id ?? null } } };
    },
  }),
  onEvent({
    /** An item went back to the merchant (a round that pays no winner, or one past its release time). */
    contract: ContractKind.RAFFLE,
    event: "ItemReturned",
    writes: ["round_item", "claim"],
    webhook: "item.returned",
    async project(_deps, manager, event, raffle) {
      const { args, blockTimestamp: at } = event;
      const [item] = await updateReturning<{ round_id: number; ticket_id: string | null }>(
        manager,
        `UPDATE round_item i SET status = 'RETURNED', tx_hash = $4, failed_to = NULL, failed_reason = NULL, failed_tx_hash = NULL, updated_at = $5
           FROM round r WHERE r.id = i.round_id AND r.contract_id = $1 AND r.round_id = $2 AND i.position = $3
         RETURNING i.round_id, i.ticket_id::text AS ticket_id`,
        [raffle.id, argString(args, "roundId"), Number(argString(args, "position")), event.txHash, at],
      );
      if (!item) return { subject: null };
      // A drawn round's unclaimed item claim ends as the unclaimed shares do: released to the merchant.
      const [claim] =
        item.ticket_id === null
          ? []
          : await updateReturning<{ id: number }>(
              manager,
              `UPDATE claim SET claim_status = 'RELEASED', updated_at = $4
                WHERE contract_id = $1 AND round_id = $2 AND token_id = $3 AND claim_type = 'RAFFLE_ITEM' AND claim_status = 'NEW' RETURNING id`,
              [raffle.id, item.round_id, item.ticket_id, at],
            );
      return { subject: { merchantId: raffle.merchantId, contractId: raffle.id, data: { claimId: claim?.id ?? null } } };
    },
  }),
  onEvent({
    /**
     * Sending an item failed (a receiver that refuses, a paused token): it stays in escrow, claimable or returnable
     * again, and the round shows the failure until the item moves.
     */
    contract: ContractKind.RAFFLE,
    event: "ItemTransferFailed",
    writes: ["round_item"],
    webhook: "item.transferFailed",
    async project(_deps, manager, event, raffle) {
      const { args, blockTimestamp: at } = event;
      const [item] = await updateReturning<{ id: number }>(
        manager,
        `UPDATE round_item i SET failed_to = $4, failed_reason = $5, failed_tx_hash = $6, updated_at = $7
           FROM round r WHERE r.id = i.round_id AND r.contract_id = $1 AND r.round_id = $2 AND i.position = $3
         RETURNING i.id`,
        [
          raffle.id,
          argString(args, "roundId"),
          Number(argString(args, "position")),
          argString(args, "to"),
          argString(args, "reason"),
          event.txHash,
          at,
        ],
      );
      if (!item) return { subject: null };
    },
  }),
];
