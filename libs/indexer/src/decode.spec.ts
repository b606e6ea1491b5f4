import { AbiCoder, Wallet, ZeroAddress, type Interface } from "ethers";
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
    expect(decodeLog(ContractKind.RAFFLE, purchase)).toEqual({
      name: "TicketsPurchased",
      status: IndexedEventStatus.APPLIED,
      args: expected,
      argsImplyLog: true,
    });
    const mint = ticket.encodeEventLog("Transfer", [ZeroAddress, account, 42n]);
    expect(decodeLog(ContractKind.TICKET, mint)).toEqual({
      name: "Transfer",
      status: IndexedEventStatus.APPLIED,
      args: { from: ZeroAddress, to: account, tokenId: "42" },
      argsImplyLog: true,
    });
    // The generic decoder agrees on the same logs.
    const generic = raffle.parseLog(purchase)!;
    expect(Object.fromEntries(generic.fragment.inputs.map((input, i) => [input.name, String(generic.args[i])]))).toEqual(expected);
  });

  it("says the args give back the log only where encoding them gives exactly its topics and data", () => {
    const account = Wallet.createRandom().address;
    const purchase = raffle.encodeEventLog("TicketsPurchased", [2n ** 255n + 3n, account, 42n, 5n, 10n ** 30n, 7n]);
    const mint = ticket.encodeEventLog("Transfer", [ZeroAddress, account, 2n ** 200n]);
    const cases: Array<[ContractKind, Interface, { topics: string[]; data: string }]> = [
      [ContractKind.RAFFLE, raffle, purchase],
      [ContractKind.TICKET, ticket, mint],
    ];
    for (const [kind, iface, log] of cases) {
      const decoded = decodeLog(kind, log);
      expect(decoded.argsImplyLog).toBe(true);
      const fragment = iface.getEvent(decoded.name!)!;
      expect(
        iface.encodeEventLog(
          fragment,
          fragment.inputs.map((input) => decoded.args![input.name] as string),
        ),
      ).toEqual(log);
    }
    // An address topic with stray high bytes reads as the same address: the raw form is then the only exact record.
    const dirty = { topics: [...purchase.topics], data: purchase.data };
    dirty.topics[2] = `0x${"ff".repeat(12)}${dirty.topics[2].slice(26)}`;
    expect(decodeLog(ContractKind.RAFFLE, dirty)).toMatchObject({ status: IndexedEventStatus.APPLIED, argsImplyLog: false });
    expect(decodeLog(ContractKind.RAFFLE, dirty).args).toEqual(decodeLog(ContractKind.RAFFLE, purchase).args);
    // The generic decoder never claims it (its ABI decoding tolerates what re-encoding would not give back).
    const ended = raffle.encodeEventLog("RoundEnded", [1n, 2n, 3n]);
    expect(decodeLog(ContractKind.RAFFLE, ended)).toMatchObject({ name: "RoundEnded", status: IndexedEventStatus.APPLIED });
    expect(decodeLog(ContractKind.RAFFLE, ended).argsImplyLog).toBeUndefined();
  });

  it("reports a known topic with the wrong shape as MALFORMED and an unknown topic as UNKNOWN", () => {
    const purchase = raffle.encodeEventLog("TicketsPurchased", [1n, ZeroAddress, 1n, 1n, 1n, 1n]);
    expect(decodeLog(ContractKind.RAFFLE, { topics: purchase.topics, data: "0x01" }).status).toBe(IndexedEventStatus.MALFORMED);
    expect(decodeLog(ContractKind.RAFFLE, { topics: purchase.topics.slice(0, 3), data: purchase.data }).status).toBe(IndexedEventStatus.MALFORMED);
    const unknown = { topics: [`0x${"ab".repeat(32)}`], data: AbiCoder.defaultAbiCoder().encode(["uint256"], [1n]) };
    expect(decodeLog(ContractKind.RAFFLE, unknown)).toMatchObject({ name: null, status: IndexedEventStatus.UNKNOWN });
  });
});
