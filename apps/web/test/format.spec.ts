import { formatAmount, formatAmountRounded } from "../src/lib/format";

/** Amounts rounded for reading: integers all the way, so a reader sees a short figure and the data stays exact. */
describe("amounts rounded for reading", () => {
  it("keeps 4 decimals, or the first 2 significant digits of a smaller fraction", () => {
    expect(formatAmountRounded("664009635357617", 18, "ETH")).toBe("0.00066 ETH");
    expect(formatAmountRounded("1234567000000000000", 18, "ETH")).toBe("1.2346 ETH");
    expect(formatAmountRounded("50000000000000000", 18, "ETH")).toBe("0.05 ETH");
    expect(formatAmountRounded("123456789012345678901", 18, "ETH")).toBe("123.4568 ETH");
    expect(formatAmountRounded("1", 18, "ETH")).toBe("0.000000000000000001 ETH");
    expect(formatAmountRounded("0", 18, "ETH")).toBe("0 ETH");
    expect(formatAmountRounded("1500", 6, "USDC")).toBe("0.0015 USDC");
    expect(formatAmountRounded("7", 0, "PTS")).toBe("7 PTS");
  });

  it("rounds half up in integers, past what a float holds", () => {
    expect(formatAmountRounded("665000000000000", 18, "ETH")).toBe("0.00067 ETH");
    expect(formatAmountRounded("99995000000000000", 18, "ETH")).toBe("0.1 ETH");
    expect(formatAmountRounded(99_999_999_999_999_999_999_999_999n, 18, "ETH")).toBe("100000000 ETH");
    expect(formatAmountRounded(-664009635357617n, 18, "ETH")).toBe("-0.00066 ETH");
  });

  it("leaves the exact figure to formatAmount", () => {
    expect(formatAmount("664009635357617", 18, "ETH")).toBe("0.000664009635357617 ETH");
  });
});
