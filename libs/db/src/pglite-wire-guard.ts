import { PGLiteSocketHandler } from "@electric-sql/pglite-socket";

/** Wire-protocol facts (PostgreSQL's frontend/backend protocol 3.0). */
const PROTOCOL_3 = 196_608;
const SSL_REQUEST = 80_877_103;
const CANCEL_REQUEST = 80_877_102;
/** A startup message names a user, a database and a few options: far below this. */
const MAX_STARTUP_LENGTH = 10_000;
/** PostgreSQL's own ceiling on one message is 1 GiB; the local stack's largest (a batch insert) is a few MiB. */
const MAX_MESSAGE_LENGTH = 256 * 1024 * 1024;
/** The message types a client may send once started: Bind, Close, CopyData/Done/Fail, Describe, Execute, Flush,
 * FunctionCall, Parse, Password, Query, Sync, Terminate. */
const FRONTEND_TYPES = new Set([..."BCcdDEfFHPpQSX"].map((letter) => letter.charCodeAt(0)));

interface Framing {
  started: boolean;
  pending: Buffer;
}

/** Where the bytes a connection sent so far stand: "ok" up to a whole or partial well-formed message, or "malformed". */
export function advanceFraming(framing: Framing, chunk: Buffer): "ok" | "malformed" {
  let buffer = framing.pending.length === 0 ? chunk : Buffer.concat([framing.pending, chunk]);
  for (;;) {
    if (!framing.started) {
      if (buffer.length < 8) break;
      const length = buffer.readInt32BE(0);
      const code = buffer.readInt32BE(4);
      const known =
        (code === SSL_REQUEST && length === 8) ||
        (code === CANCEL_REQUEST && length === 16) ||
        (code === PROTOCOL_3 && length > 8 && length <= MAX_STARTUP_LENGTH);
      if (!known) return "malformed";
      if (buffer.length < length) break;
      framing.started = code === PROTOCOL_3;
      buffer = buffer.subarray(length);
    } else {
      if (buffer.length < 5) break;
      const length = buffer.readInt32BE(1);
      if (!FRONTEND_TYPES.has(buffer[0]) || length < 4 || length > MAX_MESSAGE_LENGTH) return "malformed";
      if (buffer.length < 1 + length) break;
      buffer = buffer.subarray(1 + length);
    }
  }
  // Keep only the unfinished message (a copy, so the chunks it came from can be freed).
  framing.pending = Buffer.from(buffer);
  return "ok";
}

/** The part of pglite-socket 0.2's connection handler this wraps (not public API). */
interface HandlerInternals {
  handleData(data: Buffer): Promise<number>;
  /** Marks the connection gone (the server forgets it) and closes its socket. */
  handleError(error: Error): void;
}

let installed = false;

/**
 * pglite-socket hands PGlite whatever bytes a connection sends, and PGlite runs in this process: a few bytes that are
 * not the PostgreSQL protocol (an HTTP request, then a stray SSL request and noise) stall it, and with it every timer
 * and socket of `npm start`, which serves the API, the indexers and the pages from the same process. Any web page can
 * make a browser send an HTTP request to a loopback port. So each connection's bytes are framed here first, and a
 * connection whose bytes are not well-formed messages is closed before PGlite sees them.
 */
export function refuseMalformedConnections(): void {
  if (installed) return;
  installed = true;
  const prototype = PGLiteSocketHandler.prototype as unknown as HandlerInternals;
  const handleData = prototype.handleData;
  const framings = new WeakMap<object, Framing>();
  prototype.handleData = async function (this: HandlerInternals, data: Buffer): Promise<number> {
    let framing = framings.get(this);
    if (!framing) framings.set(this, (framing = { started: false, pending: Buffer.alloc(0) }));
    if (advanceFraming(framing, data) === "malformed") {
      this.handleError(new Error("not the PostgreSQL protocol"));
      return 0;
    }
    return handleData.call(this, data);
  };
}
