/**
 * docs/reference/webhook-events.md: every webhook message type (WEBHOOK_EVENT_TYPES of libs/indexer), the chain event
 * it announces and its `data` fields, read from the contracts' ABI (the event's arguments) plus what the outbox adds.
 */
import type { InterfaceAbi } from "ethers";
import { Exchange__factory, RaffleFactory__factory, Raffle__factory } from "@raffle/chain";
import { CHAIN_WEBHOOK_EVENT_TYPES, GASLESS_WEBHOOK_EVENT_TYPES } from "@raffle/indexer";

const ABIS = { Raffle: Raffle__factory.abi, RaffleFactory: RaffleFactory__factory.abi, Exchange: Exchange__factory.abi };

interface EventDoc {
  contract: keyof typeof ABIS;
  event: string;
  meaning: string;
  /** Fields the outbox adds to the event's arguments. */
  added?: string;
}

/** What each type announces. A type without an entry fails to compile; an event missing from the ABI fails the page. */
export const WEBHOOK_EVENT_DOCS: Record<(typeof CHAIN_WEBHOOK_EVENT_TYPES)[number], EventDoc> = {
  "raffle.deployed": {
    contract: "RaffleFactory",
    event: "RaffleDeployed",
    meaning: "the merchant deployed a raffle (and its ticket contract) through the factory",
  },
  "round.started": { contract: "Raffle", event: "RoundStarted", meaning: "a round started: its ticket asset, price and cap" },
  "ticket.purchased": {
    contract: "Raffle",
    event: "TicketsPurchased",
    meaning:
      "a player bought one or more tickets in one purchase: ids `firstTicketId` to `firstTicketId + quantity - 1`, for `amount` (`externalId` is what its voucher carried: the API's id of the round)",
  },
  "round.ended": { contract: "Raffle", event: "RoundEnded", meaning: "the round ended: no more purchases; a draw was asked when it has tickets" },
  "round.drawn": {
    contract: "Raffle",
    event: "WinnersDrawn",
    meaning: "the round's winners are known, first prize first, with the word they follow from",
    added:
      "`winners` (per position: `position`, `ticketId`, `account`, `share`, `amount` before commission, `prize` after commission as an asset, `claimId`, and the escrowed `item` the position carries as an asset with its `itemClaimId`; `prize` and `claimId` are null for a position that carries only an item, `item` and `itemClaimId` for one without), and the first position's `winner`, `prize` and `claimId` at the top level",
  },
  "round.refundable": {
    contract: "Raffle",
    event: "RoundRefundable",
    meaning: "the round's tickets can be refunded (below its minimum, no randomness in time, or the draw was refused)",
    added: "`reason` (`MINIMUM_NOT_REACHED`, `DRAW_REFUSED` or `RANDOMNESS_TIMEOUT`) and `ticketCount`",
  },
  "ticket.refunded": { contract: "Raffle", event: "TicketRefunded", meaning: "what a ticket paid went back to its holder (the ticket is burnt)" },
  "prize.claimed": {
    contract: "Raffle",
    event: "PrizeClaimed",
    meaning: "a winning ticket's holder claimed its share of the pot (one message per prize; none for a position that carries only an item)",
  },
  "prize.released": {
    contract: "Raffle",
    event: "PrizeReleased",
    meaning: "the prizes of a round still unclaimed went to the merchant after the release lag",
  },
  "claim.redeemed": {
    contract: "Exchange",
    event: "Claimed",
    meaning: "a merchant voucher (`POST /claims`) was used on chain",
    added: "`claimId` and `items`",
  },
  "raffle.paused": { contract: "Raffle", event: "Paused", meaning: "the merchant paused the raffle's purchases" },
  "raffle.unpaused": { contract: "Raffle", event: "Unpaused", meaning: "the merchant resumed the raffle's purchases" },
  "item.claimed": {
    contract: "Raffle",
    event: "ItemClaimed",
    meaning: "a winning position's escrowed item (ERC721, ERC1155 or ERC20) went to the ticket's holder, in the same claim as its share",
    added: "`claimId` (the position's RAFFLE_ITEM claim)",
  },
  "item.returned": {
    contract: "Raffle",
    event: "ItemReturned",
    meaning: "an escrowed item went back to the merchant (`returnItems`: a round closed, refundable or released, or drawn and past its release time)",
    added: "`claimId` (the position's RAFFLE_ITEM claim, now RELEASED; null for a round that was never drawn)",
  },
  "item.transferFailed": {
    contract: "Raffle",
    event: "ItemTransferFailed",
    meaning:
      "sending an item to its winner or back to the merchant failed (a receiver that refuses it, a paused token): it stays in escrow, claimable or returnable again; nothing else of the call was held up",
  },
};

/** What the API's gasless mailbox announces (no chain event of its own: `data` is the request). */
export const GASLESS_WEBHOOK_DOCS: Record<(typeof GASLESS_WEBHOOK_EVENT_TYPES)[number], string> = {
  "gasless.sent": "the merchant's relayer sent the first transaction of a gasless purchase, claim or refund (`txHash`)",
  "gasless.mined": "the API verified the relayed transaction's receipt: the request is done (`ticketIds`)",
  "gasless.failed": "the relayed request failed (`failureCode`, and `failureReason`, a sentence for the player); nothing moved",
};

interface AbiEvent {
  type: string;
  name: string;
  inputs: Array<{ name: string; type: string }>;
}

function eventArguments(doc: EventDoc): string {
  const event = (ABIS[doc.contract] as InterfaceAbi as AbiEvent[]).find((entry) => entry.type === "event" && entry.name === doc.event);
  if (!event) throw new Error(`${doc.contract} has no event ${doc.event}: update WEBHOOK_EVENT_DOCS in tools/docs/webhooks-page.ts`);
  return event.inputs.map((input) => `\`${input.name}\` (${input.type === "tuple" ? "asset" : input.type})`).join(", ") || "none";
}

export function webhookEventsPage(): string {
  const rows = CHAIN_WEBHOOK_EVENT_TYPES.map((type) => {
    const doc = WEBHOOK_EVENT_DOCS[type];
    const data = eventArguments(doc) + (doc.added ? `; added: ${doc.added}` : "");
    return `| \`${type}\` | ${doc.meaning} | \`${doc.contract}.${doc.event}\` | ${data} |`;
  });
  const gasless = GASLESS_WEBHOOK_EVENT_TYPES.map(
    (type) => `| \`${type}\` | ${GASLESS_WEBHOOK_DOCS[type]} | none (the API's gasless mailbox) | the GaslessRequestDto of \`GET /gasless/:id\` |`,
  );
  return `# Webhook events

<!-- Generated by \`npm run docs:generate\` from libs/indexer's WEBHOOK_EVENT_TYPES, the contracts' ABI and
tools/docs/webhooks-page.ts. Do not edit: a test fails when it drifts. -->

Every message type a webhook endpoint can subscribe to (\`POST /webhooks {url, events}\`; all of them when \`events\` is
left out). Each message's \`data\` holds the chain event's arguments as the API shows them: amounts and ids as decimal
strings, addresses checksummed, assets with their \`tokenType\` by name. The message's envelope (\`id\`, \`type\`,
\`removed\`, \`eventId\`, \`chainId\`, \`contractId\`, \`roundId\`, block and transaction) is described in the
[game backend guide](../guides/game-backend.md#webhooks); how to check a message: [verify a webhook](../how-to/verify-a-webhook.md).
A message with \`removed: true\` retracts an earlier one with the same \`eventId\` (a chain reorg took the event back).

| Type | Means | Chain event | \`data\` fields |
|---|---|---|---|
${[...rows, ...gasless].join("\n")}
`;
}
