import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";

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

export interface ServedWebApp {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the static build and its runtime `config.json` (API URL, chains), as any static host would: the local stack
 * and the browser tests use it. Only files under `distDir`; no directory listing.
 */
export async function serveWebApp(options: { distDir?: string; host?: string; port: number; config: unknown }): Promise<ServedWebApp> {
  const root = options.distDir ?? WEB_DIST_DIR;
  if (!fs.existsSync(path.join(root, "index.html")))
    throw new Error(`the player app is not built: no index.html in ${root} (npm run build -w apps/web)`);
  const configBody = JSON.stringify(options.config);
  const server = http.createServer((request, response) => {
    const urlPath = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
    if (urlPath === "/config.json") {
      response.writeHead(200, { "Content-Type": TYPES[".json"], "Cache-Control": "no-store" });
      response.end(configBody);
      return;
    }
    // The merchant console is the folder /console/ of the same build, as on any static host.
    if (urlPath === "/console") {
      response.writeHead(301, { Location: "/console/" });
      response.end();
      return;
    }
    const file = path.resolve(root, `.${urlPath.endsWith("/") ? `${urlPath}index.html` : urlPath}`);
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404, { "Content-Type": "text/plain" });
      response.end("Not found");
      return;
    }
    response.writeHead(200, { "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream" });
    fs.createReadStream(file).pipe(response);
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
