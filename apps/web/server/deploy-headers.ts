import * as fs from "node:fs";
import * as path from "node:path";

import { securityHeaders } from "./security-headers";

/**
 * The deploy kit's production web service (deploy/web/, nginx) sends the same headers as serve-web-app.ts: its
 * include file is written from securityHeaders() by `npm run headers:generate -w apps/web`, and a test holds the
 * committed file to it. At start the container puts the origins of its config.json in place of CONNECT_SOURCES.
 */
export const DEPLOY_HEADERS_FILE = path.resolve(__dirname, "../../../deploy/web/security-headers.conf.template");
export const CONNECT_SOURCES = "__CONNECT_SOURCES__";

/** nginx `add_header` lines (`always`: error answers carry them too), one per header. */
export function nginxSecurityHeaders(connect: string[] = [CONNECT_SOURCES]): string {
  const lines = Object.entries(securityHeaders(connect)).map(([name, value]) => `add_header ${name} "${value}" always;`);
  return [
    "# Generated from apps/web/server/security-headers.ts by `npm run headers:generate -w apps/web`: do not edit.",
    `# ${CONNECT_SOURCES} becomes the origins of config.json's apiUrl and each chain's rpcUrl at start (entrypoint.sh).`,
    ...lines,
    "",
  ].join("\n");
}

if (require.main === module) {
  fs.writeFileSync(DEPLOY_HEADERS_FILE, nginxSecurityHeaders());
  console.log(`wrote ${path.relative(process.cwd(), DEPLOY_HEADERS_FILE)}`);
}
