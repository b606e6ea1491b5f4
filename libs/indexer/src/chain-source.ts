import { toQuantity, type JsonRpcProvider } from "ethers";
import { checksumAddress } from "@raffle/chain";

/** A log as the indexer keeps it: plain data, checksummed address. */
export interface RawLog {
  blockNumber: number;
  blockHash: string;
  txHash: string;
  logIndex: number;
  address: string;
  topics: string[];
  data: string;
}

/** A log as eth_getLogs returns it (quantities in hex). */
interface JsonRpcLog {
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  logIndex: string;
  address: string;
  topics: string[];
  data: string;
  removed?: boolean;
}

/** One answer of a JSON-RPC request: its call's id, and a result or an error. */
interface JsonRpcReply {
  id: number;
  result?: unknown;
  error?: { code: number; message: string };
}

/** The fields of an eth_getBlockByNumber answer the indexer reads. */
interface JsonRpcBlock {
  hash: string | null;
  parentHash: string;
  timestamp: string;
}

/** A block's hash from an eth_getBlockByNumber answer, lower case as the indexer stores hashes; null for no block. */
function blockHash(block: unknown): string | null {
  return (block as JsonRpcBlock | null | undefined)?.hash?.toLowerCase() ?? null;
}

export function compareLogs(a: RawLog, b: RawLog): number {
  return a.blockNumber - b.blockNumber || a.logIndex - b.logIndex;
}

export interface BlockHeader {
  number: number;
  hash: string;
  parentHash: string;
  timestamp: Date;
}

/** Which chain a ChainSource reads and the setting that names its node, for the messages of its failures. */
export interface ChainSourceName {
  chainId: number;
  /** RPC_URL, or CHAIN_<id>_RPC_URL when several chains are served. */
  rpcSetting: string;
}

/** Why a call failed, as the transport says it: fetch's own message is only "fetch failed", its cause has the reason. */
function failureReason(error: unknown): string {
  const cause = (error as { cause?: { message?: string; code?: string } }).cause;
  if (cause?.message) return cause.message;
  if (error instanceof Error) return (error as { shortMessage?: string }).shortMessage ?? error.message;
  return String(error);
}

/** The indexer's reads of the chain: the head, block headers and logs. */
export class ChainSource {
  constructor(
    private readonly provider: JsonRpcProvider,
    private readonly name: ChainSourceName,
  ) {}

  /**
   * Runs one call to the node; a failure names the chain and the setting of its node, so the first line of an outage
   * says what to check (never just "fetch failed").
   */
  private async node<T>(method: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      const { chainId, rpcSetting } = this.name;
      throw new Error(`chain ${chainId}: the node at ${rpcSetting} failed ${method}: ${failureReason(error)}; check the node and ${rpcSetting}`, {
        cause: error,
      });
    }
  }

  /**
   * JSON-RPC calls, each a method and its params, in one request over the provider's own connection (URL, headers,
   * timeout), decoded natively: each call's reply, in the calls' order.
   */
  private async rawReplies(calls: Array<[method: string, params: unknown[]]>): Promise<JsonRpcReply[]> {
    if (calls.length === 0) return [];
    const methods = [...new Set(calls.map(([method]) => method))].join(", ");
    const connection = this.provider._getConnection();
    const requests = calls.map(([method, params], id) => ({ jsonrpc: "2.0", id, method, params }));
    const response = await this.node(methods, () =>
      fetch(connection.url, {
        method: "POST",
        headers: { ...connection.headers, "content-type": "application/json" },
        // One call goes alone, not as a batch of one: some nodes answer batches differently.
        body: JSON.stringify(requests.length === 1 ? requests[0] : requests),
        signal: AbortSignal.timeout(connection.timeout),
      }),
    );
    const body = (await response.json()) as JsonRpcReply | JsonRpcReply[];
    const replies = Array.isArray(body) ? body : [body];
    if (!response.ok || replies.length !== requests.length) {
      throw new Error(`${methods} failed: ${replies[0]?.error?.message ?? `HTTP ${response.status}`}`);
    }
    const ordered: JsonRpcReply[] = [];
    for (const reply of replies) {
      if (!(Number.isInteger(reply.id) && reply.id >= 0 && reply.id < requests.length))
        throw new Error(`${methods} failed: ${reply.error?.message ?? "an answer to no call"}`);
      ordered[reply.id] = reply;
    }
    // An id answered twice leaves another unanswered: a hole in `ordered`.
    if (Object.keys(ordered).length !== requests.length) throw new Error(`${methods} failed: the node's answers do not match the calls`);
    return ordered;
  }

  /** As rawReplies, each call's result; any call's error fails them all. */
  private async rawCalls(calls: Array<[method: string, params: unknown[]]>): Promise<unknown[]> {
    const replies = await this.rawReplies(calls);
    return replies.map((reply, id) => {
      if (reply.error) throw new Error(`${calls[id][0]} failed: ${reply.error.message}`);
      return reply.result;
    });
  }

  /** One JSON-RPC call over the provider's own connection (URL, headers, timeout), decoded natively. */
  private async rawCall(method: string, params: unknown[]): Promise<unknown> {
    const [result] = await this.rawCalls([[method, params]]);
    return result;
  }

  /**
   * Read-only calls of contracts at the head (eth_call), in one request: each answer is the call's return data, or null
   * where the node answered the call with an error (a contract that lacks the function reverts; nodes word and number
   * reverts differently, so any error counts, and no odd token can stop a batch). A failure to reach the node throws.
   */
  async calls(calls: Array<{ to: string; data: string }>): Promise<Array<string | null>> {
    const replies = await this.rawReplies(calls.map((call) => ["eth_call", [call, "latest"]]));
    return replies.map((reply) => (reply.error || typeof reply.result !== "string" ? null : reply.result));
  }

  async header(number: number): Promise<BlockHeader> {
    return (await this.headers([number])).get(number)!;
  }

  /** Hash of a block, or null when the chain has no such block (it got shorter in a reorg). */
  async hashAt(number: number): Promise<string | null> {
    return blockHash(await this.rawCall("eth_getBlockByNumber", [toQuantity(number), false]));
  }

  /**
   * What every step asks first, in one request: the chain id served, the head, and the hash of block `number` if
   * given (the cursor's; null when the chain has no such block). The chain id is asked every time, never a cached
   * answer: the node behind a URL can change. Not through ethers' provider, which holds each call for its batch stall
   * (10 ms by default) and may answer the head from its cache.
   */
  async tip(number: number | null): Promise<{ chainId: number; head: number; hash: string | null }> {
    const calls: Array<[string, unknown[]]> = [
      ["eth_chainId", []],
      ["eth_blockNumber", []],
    ];
    if (number !== null) calls.push(["eth_getBlockByNumber", [toQuantity(number), false]]);
    const [chainId, head, block] = await this.rawCalls(calls);
    return { chainId: Number(chainId), head: Number(head), hash: blockHash(block) };
  }

  /**
   * Headers of many blocks in one JSON-RPC batch, decoded natively: a backfill reads one per block with logs, and
   * ethers' getBlock decoded each response body in JavaScript (a tenth of the backfill's CPU).
   */
  async headers(numbers: number[]): Promise<Map<number, BlockHeader>> {
    const unique = [...new Set(numbers)];
    const blocks = (await this.rawCalls(unique.map((number) => ["eth_getBlockByNumber", [toQuantity(number), false]]))) as Array<JsonRpcBlock | null>;
    return new Map(
      unique.map((number, i) => {
        const block = blocks[i];
        if (!block?.hash) throw new Error(`block ${number} is not available`);
        const header = {
          number,
          hash: block.hash.toLowerCase(),
          parentHash: block.parentHash.toLowerCase(),
          timestamp: new Date(Number(block.timestamp) * 1000),
        };
        return [number, header];
      }),
    );
  }

  /**
   * Logs of `addresses` in [from, to], ordered by block and log index. A range the node refuses is split.
   * Plain eth_getLogs: ethers decodes response bodies in JavaScript, over ten times slower on big ranges.
   */
  async logs(addresses: string[], from: number, to: number): Promise<RawLog[]> {
    if (addresses.length === 0 || from > to) return [];
    try {
      const filter = { address: addresses, fromBlock: toQuantity(from), toBlock: toQuantity(to) };
      const logs = (await this.rawCall("eth_getLogs", [filter])) as JsonRpcLog[];
      return logs
        .filter((log) => !log.removed)
        .map((log) => ({
          blockNumber: Number(log.blockNumber),
          blockHash: log.blockHash.toLowerCase(),
          txHash: log.transactionHash.toLowerCase(),
          logIndex: Number(log.logIndex),
          address: checksumAddress(log.address),
          topics: log.topics.map((topic) => topic.toLowerCase()),
          data: log.data.toLowerCase(),
        }))
        .sort(compareLogs);
    } catch (error) {
      if (from === to) throw error;
      const middle = Math.floor((from + to) / 2);
      return [...(await this.logs(addresses, from, middle)), ...(await this.logs(addresses, middle + 1, to))];
    }
  }
}
