import { Interface } from "ethers";

import { EXCHANGE_CLIENT_ABI, EXCHANGE_GASLESS_ABI, TICKET_TRANSFER_ABI } from "./exchange-abi";
import { Exchange__factory, RaffleTicket__factory } from "./typechain";

describe("the client ABI", () => {
  it("is the compiled Exchange's purchaseRaffle and claim, word for word", () => {
    const compiled = Exchange__factory.createInterface();
    const client = new Interface(EXCHANGE_CLIENT_ABI);
    for (const name of ["purchaseRaffle", "claim"]) {
      expect(client.getFunction(name)!.format("full")).toBe(compiled.getFunction(name as "claim").format("full"));
    }
  });

  it("has the compiled Exchange's gasless entry points and their errors, word for word", () => {
    const compiled = Exchange__factory.createInterface();
    const gasless = new Interface(EXCHANGE_GASLESS_ABI);
    const names = ["purchaseRaffleWithAuthorization", "purchaseRaffleWithPermit", "claimPrizesBySig", "refundTicketsBySig"] as const;
    for (const name of names) {
      expect(gasless.getFunction(name)!.format("full")).toBe(compiled.getFunction(name).format("full"));
    }
    for (const name of [
      "IntentExpired",
      "BuyerSignatureInvalid",
      "HolderSignatureInvalid",
      "PermitRefused",
      "AuthorizationUnsupported",
      "RaffleNotListed",
    ]) {
      expect(gasless.getError(name)!.format("full")).toBe(compiled.getError(name)!.format("full"));
    }
  });

  it("is the compiled ticket's Transfer event", () => {
    expect(new Interface(TICKET_TRANSFER_ABI).getEvent("Transfer")!.format("full")).toBe(
      RaffleTicket__factory.createInterface().getEvent("Transfer").format("full"),
    );
  });
});
