import * as http from "node:http";
import * as https from "node:https";
import { isIP } from "node:net";

import { guardedLookup, isPrivateAddress } from "./url-guard";

/**
 * Connections are kept alive between deliveries to the same receiver (no TCP and TLS handshake per message). A reused
 * socket was checked when it was opened; a new one goes through the guarded lookup again.
 */
const AGENTS = { "http:": new http.Agent({ keepAlive: true, maxSockets: 16 }), "https:": new https.Agent({ keepAlive: true, maxSockets: 16 }) };

/** Bytes of a receiver's answer that are read (and kept, shortened, as the last error): the rest is dropped. */
export const MAX_RESPONSE_BYTES = 4_096;
/** Bytes of the answer kept with each attempt, for the merchant to read why it failed. */
export const RESPONSE_EXCERPT_BYTES = 1_024;

/**
 * The receiver's bytes as text PostgreSQL can store: a NUL byte (which a text column refuses, failing the statement
 * that records the attempt, so the message would be sent again and again) becomes U+FFFD, as invalid UTF-8 does.
 */
function storableText(bytes: Buffer): string {
  return bytes.toString("utf8").replaceAll("\u0000", "\uFFFD");
}

export interface SendOutcome {
  /** The receiver's HTTP status, or null when none came (timeout, connection error, refused address). */
  statusCode: number | null;
  error: string | null;
  /** The start of the receiver's answer (RESPONSE_EXCERPT_BYTES at most), or null when none came. */
  responseExcerpt: string | null;
  ok: boolean;
}

/**
 * One POST of a signed message. Redirects are not followed (a 3xx is a failure), the answer is read up to a few
 * kilobytes, the whole attempt is bounded by `timeoutMs`, and unless `allowPrivate` the connection's own DNS lookup
 * refuses private addresses.
 */
export function sendWebhook(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<SendOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return finish({ statusCode: null, error: "invalid url", responseExcerpt: null, ok: false });
    }
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    // A literal IP is connected to without a lookup: check it here.
    if (!options.allowPrivate && isIP(host) && isPrivateAddress(host))
      return finish({ statusCode: null, error: "refused: private address", responseExcerpt: null, ok: false });
    const client = url.protocol === "https:" ? https : http;
    const request = client.request(
      url,
      {
        method: "POST",
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "raffle-webhooks/1",
        },
        lookup: options.allowPrivate ? undefined : guardedLookup,
        agent: AGENTS[url.protocol as "http:" | "https:"],
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          if (size >= MAX_RESPONSE_BYTES) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= MAX_RESPONSE_BYTES) response.destroy();
        });
        const done = () => {
          const status = response.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          const answer = Buffer.concat(chunks);
          const text = storableText(answer.subarray(0, 200));
          finish({
            statusCode: status,
            ok,
            error: ok ? null : `HTTP ${status}${text ? `: ${text}` : ""}`,
            responseExcerpt: storableText(answer.subarray(0, RESPONSE_EXCERPT_BYTES)),
          });
        };
        response.on("end", done);
        response.on("close", done);
        response.on("error", done);
      },
    );
    timer = setTimeout(() => {
      request.destroy();
      finish({ statusCode: null, error: `timeout after ${options.timeoutMs} ms`, responseExcerpt: null, ok: false });
    }, options.timeoutMs);
    request.on("error", (error: NodeJS.ErrnoException) =>
      finish({ statusCode: null, error: (error.code ? `${error.code}: ` : "") + error.message, responseExcerpt: null, ok: false }),
    );
    request.end(body);
  });
}
