import { advanceFraming } from "./pglite-wire-guard";

const int32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32BE(value);
  return bytes;
};
const sslRequest = Buffer.concat([int32(8), int32(80_877_103)]);
const startup = (() => {
  const body = Buffer.from("user\0postgres\0database\0postgres\0\0");
  return Buffer.concat([int32(8 + body.length), int32(196_608), body]);
})();
const message = (type: string, body: string) => Buffer.concat([Buffer.from(type), int32(4 + body.length), Buffer.from(body)]);
const fresh = () => ({ started: false, pending: Buffer.alloc(0) });

describe("the embedded database's wire guard", () => {
  it("accepts an SSL request, a startup message and queries, however the bytes are cut", () => {
    const stream = Buffer.concat([sslRequest, startup, message("Q", "SELECT 1\0"), message("P", "\0SELECT $1\0\0\0"), message("S", "")]);
    for (const cut of [1, 3, 7, stream.length]) {
      const framing = fresh();
      for (let at = 0; at < stream.length; at += cut) expect(advanceFraming(framing, stream.subarray(at, at + cut))).toBe("ok");
      expect(framing.started).toBe(true);
      expect(framing.pending.length).toBe(0);
    }
  });

  it("keeps an unfinished message until the rest arrives", () => {
    const framing = fresh();
    expect(advanceFraming(framing, Buffer.concat([startup, message("Q", "SELECT 1\0").subarray(0, 6)]))).toBe("ok");
    expect(framing.pending.length).toBe(6);
  });

  it.each([
    ["an HTTP request", Buffer.from("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")],
    ["a POST with a body", Buffer.from("POST / HTTP/1.1\r\nContent-Length: 1000000\r\n\r\nxxxx")],
    ["a GSS encryption request", Buffer.concat([int32(8), int32(80_877_104)])],
    ["a startup message of an unknown protocol", Buffer.concat([int32(12), int32(131_072), int32(0)])],
    ["a startup message claiming a megabyte", Buffer.concat([int32(1_000_000), int32(196_608)])],
    ["a query before any startup", message("Q", "SELECT 1\0")],
    ["noise", Buffer.alloc(64, 0xff)],
  ])("refuses %s", (_name, bytes) => {
    expect(advanceFraming(fresh(), bytes)).toBe("malformed");
  });

  it.each([
    ["a message type no client sends", message("G", "x")],
    ["a negative length", Buffer.concat([Buffer.from("Q"), int32(-1)])],
    ["a length past the ceiling", Buffer.concat([Buffer.from("Q"), int32(0x7fffffff)])],
  ])("refuses, after a good start, %s", (_name, bytes) => {
    const framing = fresh();
    expect(advanceFraming(framing, startup)).toBe("ok");
    expect(advanceFraming(framing, bytes)).toBe("malformed");
  });
});
