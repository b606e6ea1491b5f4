import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";

import { DEPLOY_HEADERS_FILE, nginxSecurityHeaders } from "../server/deploy-headers";
import { connectSources, securityHeaders } from "../server/security-headers";
import { serveWebApp, type ServedWebApp } from "../server/serve-web-app";

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `requestLine` as written (no client library normalises it) and reads the answer until the server closes. */
function rawRequest(url: string, requestLine: string, extraHeaders = ""): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(`${requestLine}\r\nHost: ${hostname}:${port}\r\n${extraHeaders}Connection: close\r\n\r\n`);
    });
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const [head, ...rest] = text.split("\r\n\r\n");
      const [statusLine, ...headerLines] = head.split("\r\n");
      const headers = Object.fromEntries(
        headerLines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n") });
    });
  });
}

/**
 * The web server of the local stack and the browser tests, attacked over a raw socket: no request may end the process
 * (it also holds the API, the indexers and the worker in `npm start`), and every answer carries the security headers.
 */
describe("the web server", () => {
  let dist: string;
  let web: ServedWebApp;

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), "web-dist-"));
    fs.writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>Raffles</title>");
    fs.mkdirSync(path.join(dist, "console"));
    fs.writeFileSync(path.join(dist, "console", "index.html"), "<!doctype html><title>Merchant console</title>");
    // A broken file of the build: reading it fails on the server's side.
    fs.symlinkSync("loop.js", path.join(dist, "loop.js"));
    web = await serveWebApp({
      distDir: dist,
      port: 0,
      config: { apiUrl: "http://127.0.0.1:3999", chains: [{ rpcUrl: "https://rpc.example.org/v3/provider-key" }] },
    });
  });

  afterAll(async () => {
    await web?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  async function expectStillServing() {
    const answer = await rawRequest(web.url, "GET / HTTP/1.1");
    expect(answer.status).toBe(200);
    expect(answer.body).toContain("<title>Raffles</title>");
  }

  it.each([
    ["a lone percent sign", "/%"],
    ["a truncated UTF-8 escape", "/%E0%A4%A"],
    ["an escaped NUL byte", "/index.html%00.png"],
    ["an escaped backslash", "/..%5C..%5Cetc%5Cpasswd"],
    ["escaped dot segments", "/console%2F..%2F..%2F..%2Fetc%2Fpasswd"],
    ["a very long path", `/${"a".repeat(5_000)}`],
    ["an absolute-form target", "http://127.0.0.1/index.html"],
  ])("answers %s with 400 and keeps serving", async (_name, target) => {
    const answer = await rawRequest(web.url, `GET ${target} HTTP/1.1`);
    expect(answer.status).toBe(400);
    expect(answer.body).toBe("Bad request");
    await expectStillServing();
  });

  it("never serves a file outside the build, however the path climbs", async () => {
    for (const target of ["/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/console/../../../etc/passwd"]) {
      const answer = await rawRequest(web.url, `GET ${target} HTTP/1.1`);
      expect([400, 404]).toContain(answer.status);
      expect(answer.body).not.toContain("root:");
    }
    expect((await rawRequest(web.url, "GET /index.html/x HTTP/1.1")).status).toBe(404);
  });

  it.each(["POST", "PUT", "DELETE", "PATCH", "TRACE", "OPTIONS", "BREW"])("answers %s with 405 and Allow: GET, HEAD", async (method) => {
    const answer = await rawRequest(web.url, `${method} / HTTP/1.1`, "Content-Length: 0\r\n");
    // Node's parser refuses a method it does not know before any handler runs (400); a known one reaches ours.
    expect(answer.status).toBe(method === "BREW" ? 400 : 405);
    if (method !== "BREW") expect(answer.headers.allow).toBe("GET, HEAD");
    await expectStillServing();
  });

  it("answers HEAD with the headers of GET and no body", async () => {
    const get = await rawRequest(web.url, "GET /console/ HTTP/1.1");
    const head = await rawRequest(web.url, "HEAD /console/ HTTP/1.1");
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(String(Buffer.byteLength(get.body)));
    expect(head.body).toBe("");
    expect((await rawRequest(web.url, "HEAD /% HTTP/1.1")).body).toBe("");
  });

  it("answers 500 when a handler fails, and keeps serving", async () => {
    const answer = await rawRequest(web.url, "GET /loop.js HTTP/1.1");
    expect(answer.status).toBe(500);
    expect(answer.body).toBe("Internal error");
    await expectStillServing();
  });

  it("sends the security headers on every answer, with https: (item metadata) and the API's and the node's origins (never a path) as connect-src", async () => {
    for (const target of ["/", "/console/", "/config.json", "/missing.js", "/%"]) {
      const { headers } = await rawRequest(web.url, `GET ${target} HTTP/1.1`);
      expect(headers["content-security-policy"]).toBe(
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; font-src 'self'; " +
          "connect-src 'self' https: http://127.0.0.1:3999 https://rpc.example.org; object-src 'none'; base-uri 'none'; form-action 'self'; " +
          "frame-ancestors 'none'",
      );
      expect(headers["x-frame-options"]).toBe("DENY");
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    }
  });
});

/** The deploy kit's nginx service (deploy/web/) sends what the Node server sends: one definition, security-headers.ts. */
describe("the deploy kit's web service headers", () => {
  const script = path.resolve(__dirname, "../../../deploy/web/40-security-headers.sh");

  it("has the generated include file (npm run headers:generate -w apps/web), and the player-app guide lists the same headers", () => {
    expect(fs.readFileSync(DEPLOY_HEADERS_FILE, "utf8")).toBe(nginxSecurityHeaders());
    const guide = fs.readFileSync(path.resolve(__dirname, "../../../docs/guides/player-app.md"), "utf8");
    for (const [name, value] of Object.entries(securityHeaders(["<origins>"]))) expect(guide).toContain(`\n${name}: ${value}\n`);
  });

  it("sets connect-src at start to the origins connectSources() finds in config.json, and refuses to start without one", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "web-headers-"));
    const run = (config: string | null) => {
      const configFile = path.join(dir, "config.json");
      fs.rmSync(configFile, { force: true });
      if (config !== null) fs.writeFileSync(configFile, config);
      const env = {
        ...process.env,
        WEB_CONFIG_FILE: configFile,
        WEB_HEADERS_TEMPLATE: DEPLOY_HEADERS_FILE,
        WEB_HEADERS_FILE: path.join(dir, "out.conf"),
      };
      return spawnSync("sh", [script], { env, encoding: "utf8" });
    };
    try {
      const config = {
        apiUrl: "https://api.example.com/",
        chains: [
          { id: 1, name: "Mainnet", rpcUrl: "https://user:secret@rpc.example.org:8443/v3/provider-key?x=1" },
          { id: 2, name: "Other", rpcUrl: "https://api.example.com/rpc" },
          { id: 3, name: "Local", rpcUrl: "http://127.0.0.1:8545" },
        ],
      };
      const started = run(JSON.stringify(config, null, 2));
      expect(started.status).toBe(0);
      const written = fs.readFileSync(path.join(dir, "out.conf"), "utf8");
      expect(connectSources(config)).toEqual(["https://api.example.com", "https://rpc.example.org:8443", "http://127.0.0.1:8545"]);
      expect(written.split("\n").filter((line) => line.startsWith("add_header"))).toEqual(
        nginxSecurityHeaders(connectSources(config))
          .split("\n")
          .filter((line) => line.startsWith("add_header")),
      );
      expect(written).not.toContain("secret");

      const missing = run(null);
      expect({ status: missing.status, stderr: missing.stderr }).toEqual({
        status: 1,
        stderr: expect.stringContaining("mount the deployment's config.json"),
      });
      const relative = run(JSON.stringify({ apiUrl: "/api", chains: [] }));
      expect({ status: relative.status, stderr: relative.stderr }).toEqual({
        status: 1,
        stderr: expect.stringContaining("names no absolute apiUrl or rpcUrl"),
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
