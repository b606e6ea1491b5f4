import { plainToInstance } from "class-transformer";
import { IsInt, validateSync } from "class-validator";

import { IsEthereumAddress, ToInteger, isDisplayText } from "./validators";

class AddressHolder {
  @IsEthereumAddress()
  address!: unknown;
}

class IntegerHolder {
  @ToInteger()
  @IsInt()
  value!: unknown;
}

const isValidAddress = (address: unknown) => validateSync(plainToInstance(AddressHolder, { address })).length === 0;
const asInteger = (value: unknown) => plainToInstance(IntegerHolder, { value });

const CHECKSUMMED = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";

describe("IsEthereumAddress", () => {
  it.each([
    ["EIP-55 checksummed", CHECKSUMMED],
    ["all lower case", CHECKSUMMED.toLowerCase()],
    ["all upper case", `0x${CHECKSUMMED.slice(2).toUpperCase()}`],
    ["the zero address", "0x0000000000000000000000000000000000000000"],
  ])("accepts %s", (_name, address) => {
    expect(isValidAddress(address)).toBe(true);
  });

  it.each([
    ["a wrong checksum", CHECKSUMMED.replace("D1a", "d1a")],
    ["no 0x prefix", CHECKSUMMED.slice(2)],
    ["a 0X prefix", `0X${CHECKSUMMED.slice(2)}`],
    ["19 bytes", CHECKSUMMED.slice(0, -2)],
    ["21 bytes", `${CHECKSUMMED}00`],
    ["a non-hex digit", `${CHECKSUMMED.slice(0, -1)}g`],
    ["an ENS name", "vitalik.eth"],
    ["surrounding spaces", ` ${CHECKSUMMED} `],
    ["a number", 0x1234],
    ["an array", [CHECKSUMMED]],
    ["null", null],
  ])("rejects %s", (_name, address) => {
    expect(isValidAddress(address)).toBe(false);
  });

  it("names the property in its message", () => {
    const [error] = validateSync(plainToInstance(AddressHolder, { address: "0x12" }));
    expect(Object.values(error.constraints!)).toEqual(["address must be a 0x-prefixed 20-byte address"]);
  });
});

describe("ToInteger", () => {
  it.each([
    ["12", 12],
    ["0", 0],
    ["-3", -3],
    ["0012", 12],
    // Beyond 2^53 the nearest double, as JavaScript reads the same digits.
    ["9999999999999999", Number("9999999999999999")],
  ])("turns the decimal string %j into %d", (raw, expected) => {
    expect(asInteger(raw).value).toBe(expected);
  });

  it.each([["1.5"], ["1e3"], ["0x10"], [" 7"], ["7 "], [""], ["+7"], ["12345678901234567"], [["1", "2"]]])(
    "leaves %j unconverted, so that IsInt rejects it",
    (raw) => {
      const holder = asInteger(raw);
      expect(holder.value).toEqual(raw);
      expect(validateSync(holder)).toHaveLength(1);
    },
  );
});

describe("isDisplayText (titles, key labels, webhook descriptions)", () => {
  it("accepts text in any script, emoji and line breaks", () => {
    for (const text of ["", "Friday raffle", "جائزة الجمعة", "抽奖 🎉", "line one\n\tline two"]) expect(isDisplayText(text)).toBe(true);
  });

  it("refuses control, invisible and direction-changing characters, lone surrogates and non-strings", () => {
    for (const code of [0x0000, 0x001b, 0x061c, 0x200b, 0x200f, 0x202a, 0x202e, 0x2060, 0x2064, 0x2066, 0x2069, 0xfeff, 0xd800, 0xdfff]) {
      expect({ code, accepted: isDisplayText(`a${String.fromCharCode(code)}b`) }).toEqual({ code, accepted: false });
    }
    for (const value of [null, 7, ["a"], { text: "a" }]) expect(isDisplayText(value)).toBe(false);
  });
});
