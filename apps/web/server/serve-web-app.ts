import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";

import { connectSources, securityHeaders, type WebConfigOrigins } from "./security-headers";

/** The built player app and merchant console (`npm run build -w apps/web`). */
export const WEB_DIST_DIR = path.resolve(__dirname, "../dist");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/** Longer paths are no file of the build: refused before any decoding or file-system work. */
const MAX_PATH_LENGTH = 1_024;

export interface ServedWebApp {
  url: string;
  close(): Promise<void>;
}

/** A request this server refuses, with the status and sentence it answers. */
class Refusal {
  constructor(
    readonly status: number,
    readonly message: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

/**
 * The decoded path of a request, or a Refusal: only GET and HEAD, an origin-form target ("/..."), valid percent-encoding,
 * no control character, backslash or dot segment. The file lookup below still checks that the file is under the root.
 */
function requestedPath(request: http.IncomingMessage): string | Refusal {
  if (request.method !== "GET" && request.method !== "HEAD") return new Refusal(405, "Method not allowed", { Allow: "GET, HEAD" });
  const target = request.url ?? "";
  if (!target.startsWith("/") || target.length > MAX_PATH_LENGTH) return new Refusal(400, "Bad request");
  let decoded: string;
  try {
    decoded = decodeURIComponent(new URL(target, "http://localhost").pathname);
  } catch {
    return new Refusal(400, "Bad request");
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(decoded) || decoded.split("/").some((segment) => segment === "." || segment === ".."))
    return new Refusal(400, "Bad request");
  return decoded;
}

/** The file's stat, or undefined where no file can be: missing, or a path through a file or with a too-long name. */
function fileStat(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file, { throwIfNoEntry: false });
  } catch (error) {
    if (["ENOTDIR", "ENAMETOOLONG"].includes((error as NodeJS.ErrnoException).code ?? "")) return undefined;
    throw error;
  }
}

/**
 * Serves the static build and its runtime `config.json` (API URL, chains), as any static host would: the local stack
 * and the browser tests use it. Only files under `distDir`; no directory listing. Every answer carries the security
 * headers (security-headers.ts) computed from `config`. No request can end the process: `npm start` runs the API, the
 * indexers and the worker in the same one.
 */
export async function serveWebApp(options: { distDir?: string; host?: string; port: number; config: WebConfigOrigins }): Promise<ServedWebApp> {
  const root = options.distDir ?? WEB_DIST_DIR;
  if (!fs.existsSync(path.join(root, "index.html")))
    throw new Error(`the player app is not built: no index.html in ${root} (npm run build -w apps/web)`);
  const configBody = JSON.stringify(options.config);
  const headers = securityHeaders(connectSources(options.config));

  function answer(request: http.IncomingMessage, response: http.ServerResponse): void {
    const urlPath = requestedPath(request);
    const send = (status: number, extra: Record<string, string>, body = "") => {
      response.writeHead(status, { ...headers, ...extra, "Content-Length": String(Buffer.byteLength(body)) });
      response.end(request.method === "HEAD" ? undefined : body);
    };
    if (urlPath instanceof Refusal) return send(urlPath.status, { "Content-Type": "text/plain", ...urlPath.headers }, urlPath.message);
    if (urlPath === "/config.json") return send(200, { "Content-Type": TYPES[".json"], "Cache-Control": "no-store" }, configBody);
    // The merchant console is the folder /console/ of the same build, as on any static host.
    if (urlPath === "/console") return send(301, { Location: "/console/" });
    const file = path.resolve(root, `.${urlPath.endsWith("/") ? `${urlPath}index.html` : urlPath}`);
    const stat = file.startsWith(root + path.sep) ? fileStat(file) : undefined;
    if (!stat?.isFile()) return send(404, { "Content-Type": "text/plain" }, "Not found");
    response.writeHead(200, {
      ...headers,
      "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream",
      "Content-Length": String(stat.size),
    });
    if (request.method === "HEAD") return void response.end();
    // A read error after the headers went out can only cut the answer short.
    fs.createReadStream(file)
      .on("error", () => response.destroy())
      .pipe(response);
  }

  const server = http.createServer((request, response) => {
    try {
      answer(request, response);
    } catch (error) {
      process.stderr.write(
        `web server: ${request.method} ${request.url?.slice(0, 200)} failed: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      if (response.headersSent) response.destroy();
      else {
        response.writeHead(500, { ...headers, "Content-Type": "text/plain", "Content-Length": "14" });
        response.end(request.method === "HEAD" ? undefined : "Internal error");
      }
    }
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
