import { ZeroAddress } from "ethers";
import type { EntityManager } from "typeorm";
import { netPrize, prizeAmounts } from "@raffle/chain/rules";

import type { JsonValue } from "../decode";
import { ContractKind } from "../decode";
import { argString } from "../indexed-event";
import { onEvent, type Projection, type SingleEventHandler } from "./handler";
import { updateReturning } from "./shared";

/**
 * WinnersDrawn: the round's winners, first position first: a round_winner row and a RAFFLE_PRIZE claim per position.
 * Amounts are the contract's (the shared rules of @raffle/chain, checked against the same vectors as its PrizeSplit):
 * pot x share / 10,000 rounded down, the first position taking the remainder; the claim pays that less the raffle's
 * commission, from the draw's time lag on releasable to the merchant.
 */
export const RAFFLE_DRAW_HANDLERS: SingleEventHandler[] = [
  onEvent({
    contract: ContractKind.RAFFLE,
    event: "WinnersDrawn",
    writes: ["round", "ticket", "round_winner", "claim"],
    webhook: "round.drawn",
    async project(_deps, manager, event, raffle): Promise<Projection> {
      const { args, blockTimestamp: at } = event;
      const ticketIds = (args.ticketIds as string[]).map(String);
      const [round] = await updateReturning<{ id: number; pot: string; prize_shares: number[]; price_id: number; ticket_contract_id: number }>(
        manager,
        `UPDATE round SET round_status = 'DRAWN', random_word = $3, winning_ticket_id = $4, drawn_at = $5, updated_at = $5
          WHERE contract_id = $1 AND round_id = $2
          RETURNING id, pot, prize_shares, price_id, ticket_contract_id`,
        [raffle.id, argString(args, "roundId"), argString(args, "randomWord"), ticketIds[0] ?? null, at],
      );
      if (!round || ticketIds.length === 0) return { subject: { merchantId: raffle.merchantId, contractId: raffle.id, data: { winners: [] } } };
      // Positions past the shares carry only an item: share 0, amount 0, no RAFFLE_PRIZE claim (no money is owed).
      const shares = ticketIds.map((_, position) => round.prize_shares[position] ?? 0);
      const amounts = prizeAmounts(BigInt(round.pot), round.prize_shares, ticketIds.length);
      const paid = ticketIds.map((_, position) => position < round.prize_shares.length);
      const holders: Array<{ token_id: string; account: string }> = await updateReturning(
        manager,
        `UPDATE ticket SET is_prize = true, updated_at = $3 WHERE contract_id = $1 AND token_id = ANY($2::numeric[]) RETURNING token_id, account`,
        [round.ticket_contract_id, ticketIds, at],
      );
      const holderOf = new Map(holders.map((row) => [String(row.token_id), row.account]));
      const accounts = ticketIds.map((ticketId) => holderOf.get(ticketId) ?? ZeroAddress);
      await manager.query(
        `INSERT INTO round_winner (round_id, position, ticket_id, account, share, amount, indexed_block, created_at, updated_at)
         SELECT $1, v.n - 1, v.ticket_id, v.account, v.share, v.amount, $6, $7, $7
           FROM unnest($2::numeric[], $3::text[], $4::int[], $5::numeric[]) WITH ORDINALITY AS v(ticket_id, account, share, amount, n)
         ON CONFLICT (round_id, position) DO NOTHING`,
        [round.id, ticketIds, accounts, shares, amounts.map(String), event.blockNumber, at],
      );

      const [component] = await manager.query(
        `SELECT pc.token_type, c.address, pc.token_id, pc.amount
           FROM price_component pc JOIN contract c ON c.id = pc.contract_id
          WHERE pc.price_id = $1 ORDER BY pc.id LIMIT 1`,
        [round.price_id],
      );
      const [{ parameters, merchant_id: merchantId }] = await manager.query(`SELECT parameters, merchant_id FROM contract WHERE id = $1`, [
        raffle.id,
      ]);
      const commission = BigInt(parameters.commission ?? "0");
      const releasableAt = new Date(at.getTime() + Number(parameters.timeLagBeforeRelease ?? "0") * 1000);
      const roundId = argString(args, "roundId");
      const prizes = amounts.map((amount) => [
        {
          tokenType: component.token_type,
          token: component.address,
          tokenId: component.token_id,
          amount: netPrize(amount, commission).toString(),
        },
      ]);
      const claimParameters = ticketIds.map((ticketId, position) => JSON.stringify({ raffle: raffle.address, roundId, ticketId, position }));
      const paidPositions = (values: string[]) => values.filter((_, position) => paid[position]);
      const claims = await upsertRoundClaims(manager, "RAFFLE_PRIZE", {
        merchantId,
        releasableAt,
        raffleId: raffle.id,
        roundRowId: round.id,
        blockNumber: event.blockNumber,
        at,
        accounts: paidPositions(accounts),
        items: paidPositions(prizes.map((prize) => JSON.stringify(prize))),
        ticketIds: paidPositions(ticketIds),
        parameters: paidPositions(claimParameters),
      });
      const claimOf = new Map(claims.map((claim) => [claim.token_id, claim]));
      const itemOf = await drawItems(manager, {
        roundRowId: round.id,
        raffleId: raffle.id,
        merchantId,
        ticketIds,
        accounts,
        claimParameters,
        releasableAt,
        blockNumber: event.blockNumber,
        at,
      });
      // Every position with its ticket, holder, share, amount before commission and claim (whose item is the prize
      // after commission), and the item it carries with its RAFFLE_ITEM claim. The first position's fields stay at
      // the top level, as the first message format had them.
      const winners = ticketIds.map((ticketId, position) => ({
        position,
        ticketId,
        account: accounts[position],
        share: shares[position],
        amount: amounts[position].toString(),
        prize: claimOf.get(ticketId)?.items?.[0] ?? null,
        claimId: claimOf.get(ticketId)?.id ?? null,
        item: itemOf.get(ticketId)?.items?.[0] ?? null,
        itemClaimId: itemOf.get(ticketId)?.id ?? null,
      }));
      const first = winners[0];
      return {
        subject: {
          merchantId: raffle.merchantId,
          contractId: raffle.id,
          data: { winners: winners as unknown as JsonValue, winner: first.account, prize: first.prize, claimId: first.claimId },
        },
      };
    },
  }),
];

interface DrawnItems {
  roundRowId: number;
  raffleId: number;
  merchantId: number;
  ticketIds: string[];
  accounts: string[];
  claimParameters: string[];
  releasableAt: Date;
  blockNumber: number;
  at: Date;
}

/**
 * The round's escrowed items get their winning tickets, and each a RAFFLE_ITEM claim for the ticket's holder, with
 * the same parameters as the position's prize claim (Raffle.claimPrizes sends both). Returns the claims by ticket.
 */
async function drawItems(manager: EntityManager, drawn: DrawnItems): Promise<Map<string, { id: number; items: JsonValue[] }>> {
  const items = await updateReturning<{ position: number; ticket_id: string; token_type: string; token: string; token_id: string; amount: string }>(
    manager,
    `UPDATE round_item i SET ticket_id = ($2::numeric[])[i.position], updated_at = $3
      WHERE i.round_id = $1 AND i.position <= cardinality($2::numeric[])
      RETURNING i.position, i.ticket_id::text AS ticket_id, i.token_type, i.token, i.token_id::text AS token_id, i.amount::text AS amount`,
    [drawn.roundRowId, drawn.ticketIds, drawn.at],
  );
  if (items.length === 0) return new Map();
  const index = items.map((item) => item.position - 1);
  const claims = await upsertRoundClaims(manager, "RAFFLE_ITEM", {
    merchantId: drawn.merchantId,
    releasableAt: drawn.releasableAt,
    raffleId: drawn.raffleId,
    roundRowId: drawn.roundRowId,
    blockNumber: drawn.blockNumber,
    at: drawn.at,
    accounts: index.map((position) => drawn.accounts[position]),
    items: items.map((item) => JSON.stringify([{ tokenType: item.token_type, token: item.token, tokenId: item.token_id, amount: item.amount }])),
    ticketIds: index.map((position) => drawn.ticketIds[position]),
    parameters: index.map((position) => drawn.claimParameters[position]),
  });
  return new Map(claims.map((claim) => [claim.token_id, claim]));
}

interface RoundClaims {
  merchantId: number;
  releasableAt: Date;
  raffleId: number;
  roundRowId: number;
  blockNumber: number;
  at: Date;
  /** One entry per claim, in the same order: the holder, the claim's items (JSON), its ticket and parameters (JSON). */
  accounts: string[];
  items: string[];
  ticketIds: string[];
  parameters: string[];
}

/**
 * Writes a drawn round's prize or item claims, one per winning ticket, and returns each as stored (its id, and its
 * items as the API serves them). A redraw after a reorg overwrites the ticket's earlier claim of the same type.
 */
async function upsertRoundClaims(
  manager: EntityManager,
  claimType: "RAFFLE_PRIZE" | "RAFFLE_ITEM",
  claims: RoundClaims,
): Promise<Array<{ id: number; token_id: string; items: JsonValue[] }>> {
  return manager.query(
    `INSERT INTO claim (account, merchant_id, claim_type, claim_status, items, end_timestamp, contract_id, round_id,
                        token_id, parameters, indexed_block, created_at, updated_at)
     SELECT v.account, $1, $11::claim_claim_type_enum, 'NEW', v.items::jsonb, $2, $3, $4, v.token_id, v.parameters::jsonb, $5, $6, $6
       FROM unnest($7::text[], $8::text[], $9::numeric[], $10::text[]) WITH ORDINALITY AS v(account, items, token_id, parameters, n)
      ORDER BY v.n
     ON CONFLICT (contract_id, token_id, claim_type) WHERE claim_type <> 'VOUCHER'
     DO UPDATE SET account = EXCLUDED.account, claim_status = 'NEW', redeemed_tx_hash = NULL, items = EXCLUDED.items,
                   end_timestamp = EXCLUDED.end_timestamp, round_id = EXCLUDED.round_id,
                   parameters = EXCLUDED.parameters, updated_at = EXCLUDED.updated_at
     RETURNING id, token_id::text AS token_id, items`,
    [
      claims.merchantId,
      claims.releasableAt,
      claims.raffleId,
      claims.roundRowId,
      claims.blockNumber,
      claims.at,
      claims.accounts,
      claims.items,
      claims.ticketIds,
      claims.parameters,
      claimType,
    ],
  );
}
