import { ConfigError, envDecimal, envFlag, envInteger, envRequired } from "./env";

describe("environment readers", () => {
  it("fall back on unset or empty values and parse good ones", () => {
    expect(envInteger({}, "PORT", 3000)).toBe(3000);
    expect(envInteger({ PORT: "" }, "PORT", 3000)).toBe(3000);
    expect(envInteger({ PORT: "8080" }, "PORT", 3000)).toBe(8080);
    expect(envDecimal({ FEE: "12.5" }, "FEE", 25, 12.5)).toBe(12.5);
    expect(envFlag({ ON: "YES" }, "ON", false)).toBe(true);
    expect(envFlag({ ON: "0" }, "ON", true)).toBe(false);
    expect(envRequired({ KEY: "k" }, "KEY")).toBe("k");
  });

  it("name the setting and the bad value", () => {
    expect(() => envInteger({ PORT: "80.5" }, "PORT", 1)).toThrow(new ConfigError('PORT must be an integer >= 0, got "80.5"'));
    expect(() => envInteger({ PORT: "-1" }, "PORT", 1, 1)).toThrow(ConfigError);
    expect(() => envDecimal({ FEE: "10" }, "FEE", 25, 12.5)).toThrow(/FEE must be a number >= 12.5/);
    expect(() => envFlag({ ON: "maybe" }, "ON", false)).toThrow(/ON must be true or false/);
    expect(() => envRequired({}, "KEY")).toThrow(/KEY is required/);
  });
});
