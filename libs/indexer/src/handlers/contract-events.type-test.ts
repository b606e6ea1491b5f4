/**
 * Compiled by the indexer's typecheck, never run: proves that a handler naming an event or an argument the compiled
 * contract does not have is a type error, so a renamed event or argument in Solidity breaks the indexer's build.
 */
import { ContractKind } from "../decode";
import { argString } from "../indexed-event";
import { onEvent, onEvents } from "./handler";

const writesNothing = { writes: [] };

// The real names compile.
onEvent({
  ...writesNothing,
  contract: ContractKind.RAFFLE,
  event: "RoundEnded",
  async project(_deps, _manager, event) {
    argString(event.args, "roundId");
    argString(event.args, "ticketCount");
    // @ts-expect-error RoundEnded has no argument `tickets` (it is `ticketCount`)
    argString(event.args, "tickets");
    // @ts-expect-error nor may it be read directly
    void event.args.requestId;
  },
});

onEvents({
  ...writesNothing,
  contract: ContractKind.RAFFLE,
  event: "TicketsPurchased",
  async projectAll(_deps, _manager, events) {
    events.map((event) => argString(event.args, "firstTicketId"));
    // @ts-expect-error TicketsPurchased has no argument `buyer` (it is `account`)
    events.map((event) => argString(event.args, "buyer"));
  },
});

onEvent({
  ...writesNothing,
  contract: ContractKind.RAFFLE,
  // @ts-expect-error the Raffle emits no event `TicketsBought` (a renamed event)
  event: "TicketsBought",
  async project() {},
});

onEvent({
  ...writesNothing,
  contract: ContractKind.TICKET,
  // @ts-expect-error TicketsPurchased is the Raffle's, not the ticket's
  event: "TicketsPurchased",
  async project() {},
});

onEvent({
  ...writesNothing,
  contract: ContractKind.TICKET,
  event: "Transfer",
  applies: (event) => event.args.from !== event.args.to,
  async project(_deps, _manager, event) {
    // @ts-expect-error Transfer's arguments are from, to and tokenId
    argString(event.args, "ticketId");
  },
});
