import { readEthAmount, readPlayerLimit, relayerSentence, weiToEth } from "../src/console/gasless-settings";

/** The console's gasless settings: a budget typed in ETH is sent as exact wei, and each refusal is a sentence. */
describe("the console's gasless settings fields", () => {
  it("turns a decimal of ETH into exact wei, never through a float", () => {
    expect(readEthAmount("0.5")).toEqual({ wei: "500000000000000000" });
    expect(readEthAmount(" 2 ")).toEqual({ wei: "2000000000000000000" });
    expect(readEthAmount(".25")).toEqual({ wei: "250000000000000000" });
    expect(readEthAmount("0.000000000000000001")).toEqual({ wei: "1" });
    // 0.1 + 0.2 is not 0.3 in floating point; the budget must be.
    expect(readEthAmount("0.3")).toEqual({ wei: "300000000000000000" });
    expect(readEthAmount("123456.123456789012345678")).toEqual({ wei: "123456123456789012345678" });
  });

  it("refuses what is not an amount of ETH, with a sentence", () => {
    for (const text of ["", "-1", "1e18", "0x10", "1,5", "1.2.3", "ten", "½", "0.5 ETH", "Infinity"]) {
      const read = readEthAmount(text);
      expect(read).toHaveProperty("refusal");
      expect((read as { refusal: string }).refusal).toMatch(/\.$/);
    }
    expect(readEthAmount("0.0000000000000000001")).toEqual({ refusal: expect.stringMatching(/18 digits/) });
    expect(readEthAmount("1000001")).toEqual({ refusal: expect.stringMatching(/At most/) });
  });

  it("shows wei as ETH exactly, and reads back what it shows", () => {
    expect(weiToEth("50000000000000000")).toBe("0.05");
    expect(weiToEth("0")).toBe("0");
    expect(readEthAmount(weiToEth("123456789012345678901"))).toEqual({ wei: "123456789012345678901" });
  });

  it("reads the per-player daily limit as a whole number from 0 to 10,000", () => {
    expect(readPlayerLimit("20")).toEqual({ limit: 20 });
    expect(readPlayerLimit("0")).toEqual({ limit: 0 });
    for (const text of ["", "-1", "2.5", "1e3", "10001", "9999999999"]) expect(readPlayerLimit(text)).toHaveProperty("refusal");
  });

  it("says where the relayer stands", () => {
    const now = Date.parse("2026-03-01T12:00:00Z");
    expect(relayerSentence(null, now)).toMatch(/No relayer has asked for work yet/);
    expect(relayerSentence("2026-03-01T11:59:30Z", now)).toBe("Your relayer last asked for work less than a minute ago.");
    expect(relayerSentence("2026-03-01T11:50:00Z", now)).toMatch(/10 minutes ago: players are not offered Buy without gas/);
  });
});
