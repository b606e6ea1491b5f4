import { Interface } from "ethers";

import { EXCHANGE_CLIENT_ABI, TICKET_TRANSFER_ABI } from "./exchange-abi";
import { Exchange__factory, RaffleTicket__factory } from "./typechain";

describe("the client ABI", () => {
  it("is the compiled Exchange's purchases, claim and gasless claims and refunds, word for word", () => {
    const compiled = Exchange__factory.createInterface();
    const client = new Interface(EXCHANGE_CLIENT_ABI);
    const names = [
      "purchaseRaffle",
      "claim",
      "purchaseRaffleWithAuthorization",
      "purchaseRaffleWithPermit",
      "claimPrizesBySig",
      "refundTicketsBySig",
    ];
    for (const name of names) {
      expect(client.getFunction(name)!.format("full")).toBe(compiled.getFunction(name as "claim").format("full"));
    }
  });

  it("is the compiled ticket's Transfer event", () => {
    expect(new Interface(TICKET_TRANSFER_ABI).getEvent("Transfer")!.format("full")).toBe(
      RaffleTicket__factory.createInterface().getEvent("Transfer").format("full"),
    );
  });
});
