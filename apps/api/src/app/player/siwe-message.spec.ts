import { Wallet } from "ethers";
import { createSiweMessage } from "viem/siwe";

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
    expect(checkSiweMessage(text, await player.signMessage(text), ORIGINS, NOW)).toEqual({
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
      codes.push(codeOf(() => checkSiweMessage(text, signature, ORIGINS, NOW)));
    }
    expect(codes).toEqual(cases.map(([, code]) => code));
  });
});
