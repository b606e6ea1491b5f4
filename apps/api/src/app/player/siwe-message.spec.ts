import { Wallet } from "ethers";
import { createSiweMessage } from "viem/siwe";

import { MERCHANT_CONSOLE_SIWE_RESOURCE } from "@raffle/db";

import { checkSiweMessage } from "./siwe-message";

const ORIGINS = ["http://127.0.0.1:5173", "https://play.example.com"];
const NOW = new Date("2026-11-25T01:00:00.000Z");
const player = Wallet.createRandom();

function message(overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {}): string {
  return createSiweMessage({
    domain: "play.example.com",
    uri: "https://play.example.com/#/raffle/3",
    address: player.address as `0x${string}`,
    chainId: 31337,
    version: "1",
    nonce: "0123456789abcdef0123456789abcdef",
    issuedAt: new Date(NOW.getTime() - 1_000),
    expirationTime: new Date(NOW.getTime() + 600_000),
    ...overrides,
  });
}

const codeOf = (run: () => unknown) => {
  try {
    run();
    return "accepted";
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe("checkSiweMessage", () => {
  it("accepts a current message for one of the app's origins, signed by its address", async () => {
    const text = message();
    expect(checkSiweMessage(text, await player.signMessage(text), ORIGINS, "player", NOW)).toEqual({
      address: player.address,
      chainId: 31337,
      nonce: "0123456789abcdef0123456789abcdef",
      expiresAt: new Date(NOW.getTime() + 600_000),
    });
  });

  it("refuses each way a message can be wrong, with its own code", async () => {
    const cases: Array<[string, string, Pick<Wallet, "signMessage">?]> = [
      [message({ domain: "127.0.0.1:5174", uri: "http://127.0.0.1:5174" }), "siweDomainMismatch"],
      [message({ uri: "http://play.example.com" }), "siweDomainMismatch"],
      [message({ expirationTime: new Date(NOW.getTime() - 1) }), "siweExpired"],
      [message({ issuedAt: new Date(NOW.getTime() + 3_600_000), expirationTime: new Date(NOW.getTime() + 7_200_000) }), "siweExpired"],
      [message({ notBefore: new Date(NOW.getTime() + 3_600_000) }), "siweExpired"],
      [message({ expirationTime: undefined }), "siweMessageInvalid"],
      ["not a sign-in message", "siweMessageInvalid"],
      [message(), "siweSignatureInvalid", Wallet.createRandom()],
    ];
    const codes = [];
    for (const [text, , signer] of cases) {
      const signature = await (signer ?? player).signMessage(text);
      codes.push(codeOf(() => checkSiweMessage(text, signature, ORIGINS, "player", NOW)));
    }
    expect(codes).toEqual(cases.map(([, code]) => code));
  });

  it("tells a console sign-in from a player's by the console's Resources entry and statement, whatever the statement says", async () => {
    const consoleSignIn = { resources: [MERCHANT_CONSOLE_SIWE_RESOURCE], statement: "Sign in to the merchant console of your raffles." };
    const cases: Array<[Partial<Parameters<typeof createSiweMessage>[0]>, "player" | "merchant", string]> = [
      [consoleSignIn, "merchant", "accepted"],
      [consoleSignIn, "player", "siweMessageInvalid"],
      // What a merchant's wallet signed to buy tickets, or a message without a statement, never opens the console.
      [{ statement: "Sign in to buy raffle tickets and see your tickets." }, "merchant", "siweMessageInvalid"],
      [{}, "merchant", "siweMessageInvalid"],
      [{ statement: "Sign in to the merchant console." }, "merchant", "siweMessageInvalid"],
      // The marker without a prompt that names the console, or among other resources: still the console's.
      [{ resources: [MERCHANT_CONSOLE_SIWE_RESOURCE] }, "merchant", "siweMessageInvalid"],
      [{ ...consoleSignIn, resources: ["https://play.example.com/terms", MERCHANT_CONSOLE_SIWE_RESOURCE] }, "player", "siweMessageInvalid"],
      [{ statement: "Sign in to buy raffle tickets." }, "player", "accepted"],
    ];
    const codes = [];
    for (const [overrides, purpose] of cases) {
      const text = message(overrides);
      const signature = await player.signMessage(text);
      codes.push(codeOf(() => checkSiweMessage(text, signature, ORIGINS, purpose, NOW)));
    }
    expect(codes).toEqual(cases.map(([, , code]) => code));
  });
});
