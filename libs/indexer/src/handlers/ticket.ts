import { ZeroAddress } from "ethers";

import { ContractKind } from "../decode";
import { argString } from "../indexed-event";
import { onEvent, type SingleEventHandler } from "./handler";

/** A raffle's ticket contract (ERC721). */
export const TICKET_HANDLERS: SingleEventHandler[] = [
  onEvent({
    contract: ContractKind.TICKET,
    event: "Transfer",
    writes: ["ticket", "claim", "round_winner"],
    // Mints are projected from TicketsPurchased and burns from TicketRefunded; only real transfers move a ticket.
    applies: (event) => event.args.from !== ZeroAddress && event.args.to !== ZeroAddress,
    async project(_deps, manager, event, ticket) {
      const { args, blockTimestamp: at } = event;
      const to = argString(args, "to");
      const tokenId = argString(args, "tokenId");
      await manager.query(`UPDATE ticket SET account = $3, updated_at = $4 WHERE contract_id = $1 AND token_id = $2`, [ticket.id, tokenId, to, at]);
      // A prize, an item or a refund belongs to whoever holds the ticket.
      await manager.query(
        `UPDATE claim c SET account = $3, updated_at = $4 FROM contract t
          WHERE t.id = $1 AND c.contract_id = t.raffle_contract_id AND c.token_id = $2
            AND c.claim_type IN ('RAFFLE_PRIZE', 'RAFFLE_ITEM', 'RAFFLE_REFUND') AND c.claim_status = 'NEW'`,
        [ticket.id, tokenId, to, at],
      );
      await manager.query(
        `UPDATE round_winner w SET account = $3, updated_at = $4 FROM round r
          WHERE r.id = w.round_id AND r.ticket_contract_id = $1 AND w.ticket_id = $2 AND w.claim_status = 'UNCLAIMED'`,
        [ticket.id, tokenId, to, at],
      );
    },
  }),
];
