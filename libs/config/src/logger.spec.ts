import { randomBytes } from "node:crypto";

import { log, logLevel, parseLogLevel, redirectLogOutput, scrubSecrets, setLogLevel } from "./logger";

/** Runs `write` with every log line captured at `level`; returns the parsed lines. */
function captured(write: () => void, level: Parameters<typeof setLogLevel>[0] = "trace"): Array<Record<string, unknown>> {
  const lines: string[] = [];
  const previous = logLevel();
  const restore = redirectLogOutput((line) => lines.push(line));
  setLogLevel(level);
  try {
    write();
  } finally {
    restore();
    setLogLevel(previous);
  }
  return lines.map((line) => JSON.parse(line));
}

describe("the platform logger", () => {
  const privateKey = `0x${randomBytes(32).toString("hex")}`;
  const apiKey = "rk_ab12cd34_Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA";
  const signature = `0x${"ab".repeat(65)}`;

  it("writes one JSON object per line: level label, ISO time, the fields and `message`", () => {
    const [line] = captured(() => log("info", "indexer progress", { component: "indexer", chainId: 31337 }));
    expect(line).toEqual({
      level: "info",
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      component: "indexer",
      chainId: 31337,
      message: "indexer progress",
    });
  });

  it("redacts Authorization headers, private keys, signatures and API keys, by key and by shape", () => {
    const lines = captured(() => {
      log("info", "request", { headers: { authorization: `Bearer ${apiKey}` }, authorization: `Bearer ${apiKey}` });
      log("error", "signer failed", { privateKey, config: { signerPrivateKey: privateKey, signature } });
      log("warn", `key ${apiKey} refused for ${signature}`, { error: `bad key ${apiKey}`, signed: signature });
      log("info", "node", { rpc: "https://user:pass@mainnet.example.io/v3/0123456789abcdef?token=x" });
    });
    const text = lines.map((line) => JSON.stringify(line)).join("\n");
    expect(lines).toHaveLength(4);
    expect(text).not.toContain(apiKey.split("_")[2]);
    expect(text).not.toContain(privateKey.slice(2));
    expect(text).not.toContain(signature.slice(12));
    expect(text).not.toMatch(/bearer/i);
    expect(text).not.toContain("0123456789abcdef");
    expect(text).not.toContain("pass");
    expect(lines[0]).toMatchObject({ headers: { authorization: "[redacted]" }, authorization: "[redacted]" });
    expect(lines[1]).toMatchObject({ privateKey: "[redacted]", config: { signerPrivateKey: "[redacted]", signature: "[redacted]" } });
    expect(lines[3]).toMatchObject({ rpc: "https://mainnet.example.io/…" });
    // Block and transaction hashes (32 bytes) are kept: they are what an operator looks up.
    expect(scrubSecrets(`tx 0x${"cd".repeat(32)}`)).toBe(`tx 0x${"cd".repeat(32)}`);
  });

  it("gives LOG_LEVEL pino's meaning: lines below the level are dropped, silent drops all; anything else is refused", () => {
    expect(
      captured(() => ["trace", "debug", "info", "warn", "error", "fatal"].forEach((level) => log(level as "info", level)), "warn").map(
        (line) => line.level,
      ),
    ).toEqual(["warn", "error", "fatal"]);
    expect(captured(() => log("fatal", "x"), "silent")).toEqual([]);
    expect(parseLogLevel(undefined)).toBe("info");
    expect(parseLogLevel(" DEBUG ")).toBe("debug");
    expect(() => parseLogLevel("verbose")).toThrow('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"');
  });
});
