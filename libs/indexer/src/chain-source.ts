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

  /** One JSON-RPC call over the provider's own connection (URL, headers, timeout), decoded natively. */
  private async rawCall(method: string, params: unknown[]): Promise<unknown> {
    const connection = this.provider._getConnection();
    const response = await this.node(method, () =>
      fetch(connection.url, {
        method: "POST",
        headers: { ...connection.headers, "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        signal: AbortSignal.timeout(connection.timeout),
      }),
    );
    const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
    if (body.error || !response.ok) throw new Error(`${method} failed: ${body.error?.message ?? `HTTP ${response.status}`}`);
    return body.result;
  }

  /** The chain id the node serves, asked every time (never a cached answer: the node behind a URL can change). */
  async chainId(): Promise<number> {
    return Number(await this.rawCall("eth_chainId", []));
  }

  async head(): Promise<number> {
    return this.node("eth_blockNumber", () => this.provider.getBlockNumber());
  }

  async header(number: number): Promise<BlockHeader> {
    const block = await this.node("eth_getBlockByNumber", () => this.provider.getBlock(number));
    if (!block || !block.hash) throw new Error(`block ${number} is not available`);
    return { number, hash: block.hash, parentHash: block.parentHash, timestamp: new Date(block.timestamp * 1000) };
  }

  /** Hash of a block, or null when the chain has no such block (it got shorter in a reorg). */
  async hashAt(number: number): Promise<string | null> {
    const block = await this.node("eth_getBlockByNumber", () => this.provider.getBlock(number));
    return block?.hash ?? null;
  }

  /** Headers of many blocks at once; ethers batches the concurrent calls into few JSON-RPC requests. */
  async headers(numbers: number[]): Promise<Map<number, BlockHeader>> {
    const unique = [...new Set(numbers)];
    const headers = await Promise.all(unique.map((number) => this.header(number)));
    return new Map(headers.map((header) => [header.number, header]));
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
