import { ContractKind } from "./decode";
import { EVENT_HANDLERS, handlerFor, isBulk } from "./event-handlers";
import { CHAIN_WEBHOOK_EVENT_TYPES } from "./webhook-outbox";

describe("the event table", () => {
  it("announces every chain event's webhook type from exactly one entry", () => {
    const announced = EVENT_HANDLERS.flatMap((handler) => (handler.webhook ? [handler.webhook] : []));
    expect([...announced].sort()).toEqual([...CHAIN_WEBHOOK_EVENT_TYPES].sort());
  });

  it("finds an entry by contract kind and event name, and none for events kept raw only", () => {
    expect(handlerFor(ContractKind.RAFFLE, "WinnersDrawn")?.webhook).toBe("round.drawn");
    expect(handlerFor(ContractKind.RAFFLE, "Paused")?.webhook).toBe("raffle.paused");
    // The Exchange's pause is the platform's: projected, never announced to a merchant.
    expect(handlerFor(ContractKind.EXCHANGE, "Paused")?.webhook).toBeUndefined();
    expect(handlerFor(ContractKind.RAFFLE, "RoundRulesSet")).toBeUndefined();
    expect(handlerFor(ContractKind.TICKET, "Paused")).toBeUndefined();
  });

  it("projects purchases in bulk and passes ticket mints and burns by", () => {
    expect(isBulk(handlerFor(ContractKind.RAFFLE, "TicketsPurchased")!)).toBe(true);
    const transfer = handlerFor(ContractKind.TICKET, "Transfer")!;
    const zero = "0x0000000000000000000000000000000000000000";
    const other = "0x1111111111111111111111111111111111111111";
    const event = (from: string, to: string) => ({
      chainId: 1,
      blockNumber: 1,
      blockTimestamp: new Date(0),
      txHash: "0x",
      logIndex: 0,
      address: other,
      name: "Transfer",
      args: { from, to, tokenId: "1" },
    });
    expect(transfer.applies!(event(zero, other))).toBe(false);
    expect(transfer.applies!(event(other, zero))).toBe(false);
    expect(transfer.applies!(event(other, other))).toBe(true);
  });
});
