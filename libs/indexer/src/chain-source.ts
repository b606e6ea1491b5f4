import { getAddress, type JsonRpcProvider } from "ethers";

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

export function compareLogs(a: RawLog, b: RawLog): number {
  return a.blockNumber - b.blockNumber || a.logIndex - b.logIndex;
}

export interface BlockHeader {
  number: number;
  hash: string;
  parentHash: string;
  timestamp: Date;
}

/** The indexer's reads of the chain: the head, block headers and logs. */
export class ChainSource {
  constructor(private readonly provider: JsonRpcProvider) {}

  async head(): Promise<number> {
    return this.provider.getBlockNumber();
  }

  async header(number: number): Promise<BlockHeader> {
    const block = await this.provider.getBlock(number);
    if (!block || !block.hash) throw new Error(`block ${number} is not available`);
    return { number, hash: block.hash, parentHash: block.parentHash, timestamp: new Date(block.timestamp * 1000) };
  }

  /** Hash of a block, or null when the chain has no such block (it got shorter in a reorg). */
  async hashAt(number: number): Promise<string | null> {
    const block = await this.provider.getBlock(number);
    return block?.hash ?? null;
  }

  /** Headers of many blocks at once; ethers batches the concurrent calls into few JSON-RPC requests. */
  async headers(numbers: number[]): Promise<Map<number, BlockHeader>> {
    const unique = [...new Set(numbers)];
    const headers = await Promise.all(unique.map((number) => this.header(number)));
    return new Map(headers.map((header) => [header.number, header]));
  }

  /** Logs of `addresses` in [from, to], ordered by block and log index. A range the node refuses is split. */
  async logs(addresses: string[], from: number, to: number): Promise<RawLog[]> {
    if (addresses.length === 0 || from > to) return [];
    try {
      const logs = await this.provider.getLogs({ address: addresses, fromBlock: from, toBlock: to });
      return logs
        .filter((log) => !log.removed)
        .map((log) => ({
          blockNumber: log.blockNumber,
          blockHash: log.blockHash,
          txHash: log.transactionHash,
          logIndex: log.index,
          address: getAddress(log.address),
          topics: [...log.topics],
          data: log.data,
        }))
        .sort(compareLogs);
    } catch (error) {
      if (from === to) throw error;
      const middle = Math.floor((from + to) / 2);
      return [...(await this.logs(addresses, from, middle)), ...(await this.logs(addresses, middle + 1, to))];
    }
  }
}
