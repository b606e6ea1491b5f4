import { Wallet, type TransactionReceipt } from "ethers";
import { Raffle__factory } from "@raffle/chain";

import { settledTickets } from "./relay-jobs.service";

const RAFFLE = Raffle__factory.createInterface();

/** A receipt holding `logs` (only what settledTickets reads of a receipt). */
function receiptOf(logs: Array<{ address: string; topics: string[]; data: string }>): TransactionReceipt {
  return { logs } as unknown as TransactionReceipt;
}

function purchaseLog(raffle: string, account: string, firstTicketId: bigint, quantity: bigint) {
  const { topics, data } = RAFFLE.encodeEventLog("TicketsPurchased", [3n, account, firstTicketId, quantity, 10n ** 18n, 9n]);
  return { address: raffle, topics, data };
}

describe("settledTickets of a purchase, read from the raffle's TicketsPurchased by its words", () => {
  const raffle = Wallet.createRandom().address;
  const buyer = Wallet.createRandom().address;
  const job = { kind: "purchase", account: buyer, quantity: 3, calldata: "0x" };

  it("answers the buyer's ticket ids from the event, whatever the case of the raffle's address", () => {
    const log = purchaseLog(raffle.toLowerCase(), buyer, 41n, 3n);
    expect(settledTickets(job, raffle, receiptOf([purchaseLog(raffle, Wallet.createRandom().address, 1n, 3n), log]))).toEqual(["41", "42", "43"]);
    expect(settledTickets({ ...job, account: buyer }, raffle.toLowerCase(), receiptOf([{ ...log, address: raffle }]))).toEqual(["41", "42", "43"]);
  });

  it("answers null for another buyer, another quantity, another contract's log or a truncated one", () => {
    expect(settledTickets(job, raffle, receiptOf([purchaseLog(raffle, Wallet.createRandom().address, 41n, 3n)]))).toBeNull();
    expect(settledTickets(job, raffle, receiptOf([purchaseLog(raffle, buyer, 41n, 2n)]))).toBeNull();
    expect(settledTickets(job, raffle, receiptOf([purchaseLog(Wallet.createRandom().address, buyer, 41n, 3n)]))).toBeNull();
    const log = purchaseLog(raffle, buyer, 41n, 3n);
    expect(settledTickets(job, raffle, receiptOf([{ ...log, data: "0x" }]))).toBeNull();
    expect(settledTickets(job, raffle, receiptOf([{ ...log, topics: log.topics.slice(0, 3) }]))).toBeNull();
    expect(settledTickets(job, raffle, receiptOf([]))).toBeNull();
  });
});
