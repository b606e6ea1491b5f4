import type { PGlite } from "@electric-sql/pglite";
import type { PGLiteSocketServer } from "@electric-sql/pglite-socket";

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  onData(data: Uint8Array): void;
  resolve(bytes: number): void;
  reject(error: unknown): void;
}

/** The parts of pglite-socket 0.2's query queue and server that this replaces or reads (not public API). */
interface QueueInternals {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  db: PGlite;
  processQueue(): Promise<void>;
}
interface ServerInternals {
  queryQueue: QueueInternals;
  handlers: Set<{ handlerId: number; isAttached: boolean }>;
}

/**
 * First bytes of the messages after which a connection may be interleaved with others: Sync ends an extended query
 * (Parse, Bind, Describe, Execute, Sync), Query is a whole simple query, Terminate ends the connection; a startup
 * message (no type byte: its length starts with 0) and a password message come before any query.
 */
const ENDS_A_QUERY = new Set([0x53 /* S */, 0x51 /* Q */, 0x58 /* X */, 0x70 /* p */, 0x00]);

/**
 * pglite-socket queues each wire-protocol message on its own and, outside a transaction, runs the next message of any
 * connection. node-postgres sends a query with parameters as Parse, Bind, Describe, Execute, Sync; when two
 * connections' messages interleave, one connection's Bind lands on the other's unnamed statement (`value "0x3C44..."
 * is out of range for type integer`), as happened once the local stack ran an indexer per chain beside the API. This
 * replaces the queue's loop with one that keeps each connection's messages together up to the end of its query, as a
 * transaction's already are, so every connection sees the one PGlite session as if it were its own.
 */
export function keepQueriesTogether(server: PGLiteSocketServer): void {
  const internals = server as unknown as ServerInternals;
  const queue = internals.queryQueue;
  let queryOpen = false;
  const ownerAttached = (handlerId: number) => [...internals.handlers].some((handler) => handler.handlerId === handlerId && handler.isAttached);

  queue.processQueue = async () => {
    if (queue.processing) return;
    queue.processing = true;
    try {
      while (queue.queue.length > 0) {
        const owner = queue.lastHandlerId;
        // The connection in the middle of a query or a transaction goes on alone (unless it went away meanwhile).
        const exclusive = owner !== null && (queryOpen || queue.db.isInTransaction()) && ownerAttached(owner);
        const index = exclusive ? queue.queue.findIndex((queued) => queued.handlerId === owner) : 0;
        if (index === -1) break; // its next message has not arrived yet: enqueue() starts this loop again
        const [next] = queue.queue.splice(index, 1);
        let bytes = 0;
        try {
          await queue.db.runExclusive(() =>
            queue.db.execProtocolRawStream(next.message, {
              onRawData: (data) => {
                bytes += data.length;
                next.onData(data);
              },
            }),
          );
        } catch (error) {
          next.reject(error);
          continue;
        }
        queue.lastHandlerId = next.handlerId;
        queryOpen = !ENDS_A_QUERY.has(next.message[0]);
        next.resolve(bytes);
      }
    } finally {
      queue.processing = false;
    }
  };
}
