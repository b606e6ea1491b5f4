import * as http from "node:http";
import type { AddressInfo } from "node:net";

import { checkWebhookUrl, isPrivateAddress } from "./url-guard";
import { MAX_RESPONSE_BYTES, sendWebhook } from "./webhook-sender";

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
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
      expect([address, isPrivateAddress(address)]).toEqual([address, false]);
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
      // /slow: never answers
    };
    const options = { timeoutMs: 500, allowPrivate: true };
    expect(await sendWebhook(`${base}/redirect`, {}, "{}", options)).toMatchObject({ ok: false, statusCode: 302 });
    expect(hits).not.toContain("/elsewhere");
    const huge = await sendWebhook(`${base}/huge`, {}, "{}", options);
    expect(huge).toMatchObject({ ok: false, statusCode: 500 });
    expect(huge.error!.length).toBeLessThan(MAX_RESPONSE_BYTES);
    const started = Date.now();
    expect(await sendWebhook(`${base}/slow`, {}, "{}", options)).toMatchObject({ ok: false, statusCode: null, error: "timeout after 500 ms" });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
