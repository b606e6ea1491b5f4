import { Worker } from "node:worker_threads";
import secp256k1 from "secp256k1";

/** An ECDSA signature over secp256k1 with its recovery id, as the native binding gives it. */
export interface RecoverableSignature {
  signature: Uint8Array;
  recid: number;
}

/** Signs a 32-byte digest here, deterministically (RFC 6979, low s): what the thread does, and its fallback. */
export function signDigest(digest: Uint8Array, privateKey: Uint8Array): RecoverableSignature {
  const { signature, recid } = secp256k1.ecdsaSign(digest, privateKey);
  return { signature, recid };
}

/** Slots of the state shared with the thread: it is inside the native binding; the process is exiting. */
const BUSY = 0;
const EXITING = 1;

/**
 * The thread's code, run by `new Worker(…, { eval: true })` so that it is the same from the TypeScript sources (tests)
 * and the compiled build. Per batch: the key of each digest, the digests end to end; it answers 65 bytes per digest
 * (signature, then recovery id). It never sends a key back, and its errors carry no key. Between two signatures it
 * stops a batch when the process is exiting (see `holdExitUntilIdle`).
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const secp256k1 = require(workerData.secp256k1);
const keys = workerData.keys;
const state = new Int32Array(workerData.state);
parentPort.on("message", (message) => {
  if (message.close) {
    parentPort.close();
    return;
  }
  if (message.key) {
    keys.push(message.key);
    return;
  }
  const { id, keyIds, digests } = message;
  const out = new Uint8Array(keyIds.length * 65);
  Atomics.store(state, ${BUSY}, 1);
  for (let i = 0; i < keyIds.length && Atomics.load(state, ${EXITING}) === 0; i += 1) {
    const { signature, recid } = secp256k1.ecdsaSign(digests.subarray(i * 32, i * 32 + 32), keys[keyIds[i]]);
    out.set(signature, i * 65);
    out[i * 65 + 64] = recid;
  }
  Atomics.store(state, ${BUSY}, 0);
  Atomics.notify(state, ${BUSY});
  parentPort.postMessage({ id, out }, [out.buffer]);
});
`;

/** Longest the process's exit waits for the thread to leave a signature (one takes well under a millisecond). */
const EXIT_WAIT_MS = 100;

interface PendingSignature {
  keyId: number;
  digest: Uint8Array;
  resolve: (signature: RecoverableSignature) => void;
}

/**
 * Signs digests on a thread of its own, so that the event loop serving the requests does not spend the signature's
 * CPU (about a quarter of a sign request's) while other requests wait for it: with one API process on two cores the
 * loop was what capped the sign endpoint at 16 connections, and the thread gave it 8 % more requests/s
 * (docs/performance.md, "Where the sign path's CPU goes"). The digests asked for in one pass of the event loop go in one message
 * and come back in one. If the thread fails, every signature it owed, and each one after, is made on the calling
 * thread instead (the same bytes: signing is deterministic), so a thread's failure never fails a request.
 */
export class SigningThread {
  private readonly keys: Uint8Array[] = [];
  private worker: Worker | null = null;
  /** Set once the thread failed or was closed: signatures are then made here. */
  private signHere = false;
  private queued: PendingSignature[] = [];
  private flushScheduled = false;
  private readonly inFlight = new Map<number, PendingSignature[]>();
  private nextBatchId = 0;
  private readonly state = new Int32Array(new SharedArrayBuffer(8));

  /** `onFailure` hears the thread's failure once (the API logs it); the error never holds a key. */
  constructor(private readonly onFailure: (error: Error) => void = () => undefined) {}

  /** Makes `privateKey` usable by `sign`; returns its id. */
  addKey(privateKey: Uint8Array): number {
    const key = Uint8Array.from(privateKey);
    this.keys.push(key);
    this.worker?.postMessage({ key });
    return this.keys.length - 1;
  }

  sign(keyId: number, digest: Uint8Array): Promise<RecoverableSignature> {
    // A bad id would end the thread, and then fail again here: refuse it before either.
    if (!this.keys[keyId]) return Promise.reject(new RangeError(`no signing key ${keyId}`));
    if (this.signHere) return Promise.resolve(signDigest(digest, this.keys[keyId]));
    return new Promise((resolve) => {
      this.queued.push({ keyId, digest, resolve });
      if (this.flushScheduled) return;
      this.flushScheduled = true;
      // After the current burst of promise continuations: the requests answered by one Redis reply share a message.
      process.nextTick(() => this.flush());
    });
  }

  /**
   * Ends the thread once it has answered what it was sent (ending it mid-signature would abort the process: the
   * native binding cannot unwind a stopped thread); from now on signatures are made here.
   */
  async close(): Promise<void> {
    const worker = this.worker;
    this.signHere = true;
    this.worker = null;
    if (worker) {
      await new Promise((resolve) => {
        worker.ref();
        worker.once("exit", resolve);
        worker.postMessage({ close: true });
      });
    }
    this.settleOwedHere();
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.queued;
    this.queued = [];
    if (batch.length === 0) return;
    if (this.signHere) return settleHere(batch, this.keys);
    const keyIds = new Uint32Array(batch.length);
    const digests = new Uint8Array(batch.length * 32);
    batch.forEach((pending, index) => {
      keyIds[index] = pending.keyId;
      digests.set(pending.digest, index * 32);
    });
    const id = this.nextBatchId++;
    this.inFlight.set(id, batch);
    (this.worker ??= this.start()).postMessage({ id, keyIds, digests }, [keyIds.buffer, digests.buffer]);
  }

  private start(): Worker {
    const worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { secp256k1: require.resolve("secp256k1"), keys: this.keys, state: this.state.buffer },
    });
    // Requests in flight keep the process alive, not the thread.
    worker.unref();
    process.once("exit", this.holdExitUntilIdle);
    worker.once("exit", () => process.removeListener("exit", this.holdExitUntilIdle));
    worker.on("message", ({ id, out }: { id: number; out: Uint8Array }) => {
      const batch = this.inFlight.get(id);
      this.inFlight.delete(id);
      batch?.forEach((pending, index) => pending.resolve({ signature: out.subarray(index * 65, index * 65 + 64), recid: out[index * 65 + 64] }));
    });
    worker.on("error", (error) => this.fail(error));
    worker.on("exit", (code) => this.fail(new Error(`the signing thread exited (code ${code})`)));
    return worker;
  }

  /**
   * A process that exits stops its threads wherever they are, and the native binding aborts the whole process
   * (exit code 134) when its thread is stopped inside a signature. So on exit the thread is told to stop between two
   * signatures, and the exit waits, at most EXIT_WAIT_MS, until it is out of the binding.
   */
  private readonly holdExitUntilIdle = (): void => {
    Atomics.store(this.state, EXITING, 1);
    Atomics.wait(this.state, BUSY, 1, EXIT_WAIT_MS);
  };

  private fail(error: Error): void {
    if (this.signHere) return;
    this.signHere = true;
    this.worker = null;
    this.settleOwedHere();
    this.onFailure(error);
  }

  private settleOwedHere(): void {
    const owed = [...this.inFlight.values()].flat();
    this.inFlight.clear();
    settleHere(owed, this.keys);
  }
}

function settleHere(batch: PendingSignature[], keys: Uint8Array[]): void {
  for (const pending of batch) pending.resolve(signDigest(pending.digest, keys[pending.keyId]));
}
