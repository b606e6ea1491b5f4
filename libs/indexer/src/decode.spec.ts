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
    const purchase = raffle.encodeEventLog("TicketsPurchased", [big, account, 42n, 5n, 45n * 10n ** 18n, 2n ** 119n]);
    const expected = {
      roundId: big.toString(),
      account,
      firstTicketId: "42",
      quantity: "5",
      amount: (45n * 10n ** 18n).toString(),
      externalId: (2n ** 119n).toString(),
    };
    expect(decodeLog(ContractKind.RAFFLE, purchase)).toEqual({ name: "TicketsPurchased", status: IndexedEventStatus.APPLIED, args: expected });
    const mint = ticket.encodeEventLog("Transfer", [ZeroAddress, account, 42n]);
    expect(decodeLog(ContractKind.TICKET, mint)).toEqual({
      name: "Transfer",
      status: IndexedEventStatus.APPLIED,
      args: { from: ZeroAddress, to: account, tokenId: "42" },
    });
    // The generic decoder agrees on the same logs.
    const generic = raffle.parseLog(purchase)!;
    expect(Object.fromEntries(generic.fragment.inputs.map((input, i) => [input.name, String(generic.args[i])]))).toEqual(expected);
  });

  it("reports a known topic with the wrong shape as MALFORMED and an unknown topic as UNKNOWN", () => {
    const purchase = raffle.encodeEventLog("TicketsPurchased", [1n, ZeroAddress, 1n, 1n, 1n, 1n]);
    expect(decodeLog(ContractKind.RAFFLE, { topics: purchase.topics, data: "0x01" }).status).toBe(IndexedEventStatus.MALFORMED);
    expect(decodeLog(ContractKind.RAFFLE, { topics: purchase.topics.slice(0, 3), data: purchase.data }).status).toBe(IndexedEventStatus.MALFORMED);
    const unknown = { topics: [`0x${"ab".repeat(32)}`], data: AbiCoder.defaultAbiCoder().encode(["uint256"], [1n]) };
    expect(decodeLog(ContractKind.RAFFLE, unknown)).toMatchObject({ name: null, status: IndexedEventStatus.UNKNOWN });
  });
});
