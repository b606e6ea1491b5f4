import * as http from "node:http";
import type { AddressInfo } from "node:net";

import { checkWebhookUrl, isPrivateAddress } from "./url-guard";
import { MAX_RESPONSE_BYTES, RESPONSE_EXCERPT_BYTES, sendWebhook } from "./webhook-sender";

describe("webhook URL guard", () => {
  it("knows loopback, private, link-local, metadata and reserved addresses", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fe80::1",
      "fd00:ec2::254",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
    ]) {
      expect([address, isPrivateAddress(address)]).toEqual([address, true]);
    }
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8", "::ffff:808:808", "2a00:1450:4001:80b::200e"]) {
      expect([address, isPrivateAddress(address)]).toEqual([address, false]);
    }
  });

  it("refuses the IPv6 transition forms that lead to IPv4 addresses, in every spelling", async () => {
    for (const address of [
      "::127.0.0.1",
      "::7f00:1",
      "::ffff:7f00:1",
      "0:0:0:0:0:ffff:7f00:1",
      "::ffff:0:127.0.0.1",
      "::ffff:0:7f00:1",
      "64:ff9b::127.0.0.1",
      "64:ff9b:1::a00:1",
      "64:ff9b:1:ffff::1",
      "2002:7f00:1::1",
      "2002:808:808::1",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
      "3fff::1",
    ]) {
      expect([address, isPrivateAddress(address)]).toEqual([address, true]);
    }
    for (const url of [
      "https://[::127.0.0.1]/hook",
      "https://[::ffff:0:127.0.0.1]/hook",
      "https://[64:ff9b:1::a00:1]/",
      "https://[2002:7f00:1::1]/",
    ]) {
      await expect(checkWebhookUrl(url, false)).rejects.toMatchObject({ kind: "refused" });
      expect(await sendWebhook(url, {}, "{}", { timeoutMs: 1_000, allowPrivate: false })).toMatchObject({
        ok: false,
        error: expect.stringContaining("refused"),
      });
    }
  });

  it("refuses private hosts and plain http unless private URLs are allowed", async () => {
    for (const url of [
      "https://127.0.0.1/hook",
      "https://localhost/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/hook",
      "https://10.0.0.8/",
    ]) {
      await expect(checkWebhookUrl(url, false)).rejects.toMatchObject({ kind: "refused" });
    }
    await expect(checkWebhookUrl("http://93.184.216.34/hook", false)).rejects.toMatchObject({ kind: "invalid" });
    // Whether a name does not resolve or resolves to a private address, the answer is the same: it tells nothing
    // about which internal names exist.
    const unknown = await checkWebhookUrl("https://no-such-host.invalid/hook", false).catch((error: Error) => error.message);
    const internal = await checkWebhookUrl("https://localhost/hook", false).catch((error: Error) => error.message);
    expect(unknown).toBe("the url's host must resolve, and only to public addresses");
    expect(internal).toBe(unknown);
    await expect(checkWebhookUrl("https://93.184.216.34/hook", false)).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookUrl("http://127.0.0.1:8080/hook", true)).resolves.toBeInstanceOf(URL);
  });
});

describe("webhook sender", () => {
  let server: http.Server;
  let base: string;
  const hits: string[] = [];
  let handler: (request: http.IncomingMessage, response: http.ServerResponse) => void = (_request, response) => response.end("ok");

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      hits.push(request.url ?? "");
      handler(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => (hits.length = 0));

  it("refuses a private address at delivery, by literal IP or by a name that resolves to it, before connecting", async () => {
    const port = new URL(base).port;
    for (const url of [`${base}/a`, `http://localhost:${port}/b`]) {
      const outcome = await sendWebhook(url, {}, "{}", { timeoutMs: 2_000, allowPrivate: false });
      expect(outcome).toMatchObject({ ok: false, statusCode: null, error: expect.stringContaining("refused") });
    }
    expect(hits).toEqual([]);
    expect(await sendWebhook(`${base}/c`, {}, "{}", { timeoutMs: 2_000, allowPrivate: true })).toMatchObject({ ok: true, statusCode: 200 });
  });

  it("does not follow redirects, reads a few kilobytes of an answer, and gives up at the timeout", async () => {
    handler = (request, response) => {
      if (request.url === "/redirect") return response.writeHead(302, { location: "/elsewhere" }).end();
      if (request.url === "/huge") return response.writeHead(500).end("x".repeat(5 * 1024 * 1024));
      if (request.url === "/nul") return response.writeHead(500).end(Buffer.from([0x61, 0x00, 0x62, 0xff]));
      // /slow: never answers
    };
    const options = { timeoutMs: 500, allowPrivate: true };
    expect(await sendWebhook(`${base}/redirect`, {}, "{}", options)).toMatchObject({ ok: false, statusCode: 302 });
    expect(hits).not.toContain("/elsewhere");
    const huge = await sendWebhook(`${base}/huge`, {}, "{}", options);
    expect(huge).toMatchObject({ ok: false, statusCode: 500 });
    expect(huge.error!.length).toBeLessThan(MAX_RESPONSE_BYTES);
    // The attempt keeps the answer's first KiB, no more.
    expect(huge.responseExcerpt).toBe("x".repeat(RESPONSE_EXCERPT_BYTES));
    // A NUL byte, which PostgreSQL's text refuses, is stored as U+FFFD, like invalid UTF-8.
    const nul = await sendWebhook(`${base}/nul`, {}, "{}", options);
    expect(nul).toMatchObject({ statusCode: 500, responseExcerpt: "a\uFFFDb\uFFFD", error: "HTTP 500: a\uFFFDb\uFFFD" });
    const started = Date.now();
    expect(await sendWebhook(`${base}/slow`, {}, "{}", options)).toMatchObject({
      ok: false,
      statusCode: null,
      error: "timeout after 500 ms",
      responseExcerpt: null,
    });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
