import { Interface, NamedFragment, type Fragment } from "ethers";

import { RAFFLE_CLIENT_ABI, RAFFLE_FACTORY_CLIENT_ABI, RAFFLE_TICKET_CLIENT_ABI } from "./raffle-abi";
import { IRaffle__factory, RaffleFactory__factory, RaffleTicket__factory, Raffle__factory } from "./typechain";

describe("the ticket client ABI", () => {
  it("is the compiled ticket's ticketState and tokenURI", () => {
    const compiled = RaffleTicket__factory.createInterface();
    const client = new Interface(RAFFLE_TICKET_CLIENT_ABI);
    for (const name of ["ticketState", "tokenURI"] as const) {
      expect(client.getFunction(name)!.format("full")).toBe(compiled.getFunction(name).format("full"));
    }
  });
});

describe("the factory client ABI", () => {
  it("is the compiled factory's merchantOf", () => {
    expect(new Interface(RAFFLE_FACTORY_CLIENT_ABI).getFunction("merchantOf")!.format("full")).toBe(
      RaffleFactory__factory.createInterface().getFunction("merchantOf").format("full"),
    );
  });
});

describe("the Raffle client ABI", () => {
  const compiled = Raffle__factory.createInterface();
  const client = new Interface(RAFFLE_CLIENT_ABI);
  const nameOf = (fragment: Fragment) => (fragment instanceof NamedFragment ? fragment.name : fragment.type);

  it("is the compiled Raffle's, fragment for fragment", () => {
    expect(client.fragments.length).toBe(RAFFLE_CLIENT_ABI.length);
    for (const fragment of client.fragments) {
      const twin = compiled.fragments.find((candidate) => candidate.type === fragment.type && nameOf(candidate) === nameOf(fragment));
      expect(twin?.format("full")).toBe(fragment.format("full"));
    }
  });

  it("decodes every error the Raffle's interface declares", () => {
    const declared = IRaffle__factory.createInterface().fragments.filter((fragment) => fragment.type === "error");
    const clientErrors = new Set(client.fragments.filter((fragment) => fragment.type === "error").map((fragment) => fragment.format("full")));
    // Only the merchant's and the platform's own refusals are left out: a player's call never meets them.
    const adminOnly = [
      "CallerNotExchange",
      "CallerNotFactory",
      "CommissionTooHigh",
      "InvalidPrizeShares",
      "InvalidBundle",
      "BundleAboveRoundPrice",
      "InvalidPriceAsset",
      "MaxTicketTooLarge",
      "MaxTicketBelowMinimum",
      "NotEnoughGasForDraw",
      "RoundNotOverdue",
      "RoundStillActive",
      "PriceTokenNotAllowed",
      "PrizeNotReleasableYet",
      "RaffleNotPaused",
      "ZeroAddress",
      "NothingToWithdraw",
      "TimeLagTooShort",
    ];
    for (const error of declared) {
      if (adminOnly.includes(nameOf(error))) continue;
      expect(clientErrors).toContain(error.format("full"));
    }
  });
});
