import { ContractKind } from "../decode";
import { argString } from "../indexed-event";
import { runNamed, type NamedStatement } from "../prepared";
import { onEvents, type BulkEventHandler } from "./handler";

/**
 * The tickets, then their rounds' counts from the rows inserted (a replayed purchase inserts none and so adds
 * nothing). A named statement: it runs once per block of purchases (prepared.ts).
 */
const PURCHASES_STATEMENT: NamedStatement = {
  name: "indexer-purchases",
  text: `WITH inserted AS (
     INSERT INTO ticket (contract_id, round_id, token_id, serial, account, buyer, external_id, tx_hash, tier, paid_amount,
                         indexed_block, created_at, updated_at)
     SELECT r.ticket_contract_id, r.id, v.first_ticket_id + k, (v.first_ticket_id + k - r.first_ticket_id + 1)::int,
            v.account, v.account, v.external_id, v.tx_hash,
            (SELECT count(*) FROM jsonb_array_elements(r.bundles) b WHERE (b ->> 'quantity')::int <= v.quantity)::int,
            div(v.amount, v.quantity), v.block, v.at, v.at
       FROM unnest($1::int[], $2::numeric[], $3::numeric[], $4::int[], $5::numeric[], $6::text[], $7::numeric[],
                   $8::text[], $9::bigint[], $10::timestamptz[])
         AS v(raffle_id, round_id, first_ticket_id, quantity, amount, account, external_id, tx_hash, block, at)
       JOIN round r ON r.contract_id = v.raffle_id AND r.round_id = v.round_id
       CROSS JOIN LATERAL generate_series(0, v.quantity - 1) AS k
     ON CONFLICT (contract_id, token_id) DO NOTHING RETURNING round_id, updated_at, paid_amount)
   UPDATE round SET ticket_count = ticket_count + c.added, pot = pot + c.paid, updated_at = GREATEST(round.updated_at, c.last)
     FROM (SELECT round_id, count(*)::int AS added, sum(paid_amount) AS paid, max(updated_at) AS last
             FROM inserted GROUP BY round_id) c
    WHERE round.id = c.round_id`,
};

/**
 * TicketsPurchased events of raffles, in chain order, written in one statement whatever their number: one ticket
 * row per ticket bought (ids firstTicketId..firstTicketId+quantity-1) and each round's ticket count, pot and last
 * change. This is the indexer's hot path. A ticket's tier is the number of the round's bundles whose quantity is at
 * most the purchase's (bundles rise in quantity), exactly the contract's `BundlePrice.perTicket`; it paid amount / quantity.
 */
export const RAFFLE_PURCHASE_HANDLERS: BulkEventHandler[] = [
  onEvents({
    contract: ContractKind.RAFFLE,
    event: "TicketsPurchased",
    writes: ["ticket", "round"],
    webhook: "ticket.purchased",
    async projectAll(deps, manager, events) {
      if (events.length === 0) return;
      const column = (pick: (event: (typeof events)[number]) => unknown) => events.map(pick);
      await runNamed(manager, PURCHASES_STATEMENT, [
        column((event) => deps.registry.get(event.address)!.id),
        column((event) => argString(event.args, "roundId")),
        column((event) => argString(event.args, "firstTicketId")),
        column((event) => argString(event.args, "quantity")),
        column((event) => argString(event.args, "amount")),
        column((event) => argString(event.args, "account")),
        column((event) => argString(event.args, "externalId")),
        column((event) => event.txHash),
        column((event) => event.blockNumber),
        column((event) => event.blockTimestamp),
      ]);
    },
  }),
];
