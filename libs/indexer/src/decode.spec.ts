import { AbiCoder, Wallet, ZeroAddress } from "ethers";
import { RaffleTicket__factory, Raffle__factory } from "@raffle/chain";
import { IndexedEventStatus } from "@raffle/db";

import { ContractKind, decodeLog } from "./decode";

describe("decodeLog", () => {
  const raffle = Raffle__factory.createInterface();
  const ticket = RaffleTicket__factory.createInterface();

  it("reads purchases and mints on the fast path exactly as the ABI decoder would", () => {
    const account = Wallet.createRandom().address;
    const big = 2n ** 200n + 7n;
    const purchase = raffle.encodeEventLog("TicketPurchased", [big, 42n, account, 3n, 2n ** 119n]);
    expect(decodeLog(ContractKind.RAFFLE, purchase)).toEqual({
      name: "TicketPurchased",
      status: IndexedEventStatus.APPLIED,
      args: { roundId: big.toString(), ticketId: "42", account, serial: "3", externalId: (2n ** 119n).toString() },
    });
    const mint = ticket.encodeEventLog("Transfer", [ZeroAddress, account, 42n]);
    expect(decodeLog(ContractKind.TICKET, mint)).toEqual({
      name: "Transfer",
      status: IndexedEventStatus.APPLIED,
      args: { from: ZeroAddress, to: account, tokenId: "42" },
    });
    // The generic decoder agrees on the same logs.
    const generic = raffle.parseLog(purchase)!;
    expect(generic.args.account).toBe(account);
    expect(generic.args.roundId).toBe(big);
  });

  it("reports a known topic with the wrong shape as MALFORMED and an unknown topic as UNKNOWN", () => {
    const purchase = raffle.encodeEventLog("TicketPurchased", [1n, 1n, ZeroAddress, 1n, 1n]);
    expect(decodeLog(ContractKind.RAFFLE, { topics: purchase.topics, data: "0x01" }).status).toBe(IndexedEventStatus.MALFORMED);
    expect(decodeLog(ContractKind.RAFFLE, { topics: purchase.topics.slice(0, 3), data: purchase.data }).status).toBe(IndexedEventStatus.MALFORMED);
    const unknown = { topics: [`0x${"ab".repeat(32)}`], data: AbiCoder.defaultAbiCoder().encode(["uint256"], [1n]) };
    expect(decodeLog(ContractKind.RAFFLE, unknown)).toMatchObject({ name: null, status: IndexedEventStatus.UNKNOWN });
  });
});
