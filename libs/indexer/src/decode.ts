import { ParamType, Result, getAddress, type Interface, type Log } from "ethers";
import { Exchange__factory, RaffleFactory__factory, RaffleTicket__factory, Raffle__factory } from "@raffle/chain";
import { IndexedEventStatus } from "@raffle/db";

/** What a registered address is, which decides the ABI its logs are read with. */
export enum ContractKind {
  EXCHANGE = "EXCHANGE",
  FACTORY = "FACTORY",
  RAFFLE = "RAFFLE",
  TICKET = "TICKET",
}

const INTERFACES: Record<ContractKind, Interface> = {
  [ContractKind.EXCHANGE]: Exchange__factory.createInterface(),
  [ContractKind.FACTORY]: RaffleFactory__factory.createInterface(),
  [ContractKind.RAFFLE]: Raffle__factory.createInterface(),
  [ContractKind.TICKET]: RaffleTicket__factory.createInterface(),
};

export type JsonValue = string | boolean | JsonValue[] | { [key: string]: JsonValue };
/** An event's decoded arguments by name; `Arg` narrows the names to one event's (handlers/contract-events.ts). */
export type EventArgs<Arg extends string = string> = Record<Arg, JsonValue>;

export interface DecodedLog {
  name: string | null;
  args: EventArgs | null;
  status: IndexedEventStatus;
  reason?: string;
  /**
   * The args, encoded with the event's ABI, give back exactly this log's topics and data: the raw form adds nothing, and
   * the raw event row keeps only the args (raw-log-store.ts). Set only where the decoding proves it (the fixed layouts).
   */
  argsImplyLog?: boolean;
}

/** Decoded values as JSON: integers as decimal strings (never Number), addresses checksummed, structs as objects. */
function toJson(value: unknown, type: ParamType): JsonValue {
  if (type.isTuple()) {
    const result = value as Result;
    return Object.fromEntries(type.components.map((component, i) => [component.name, toJson(result[i], component)]));
  }
  if (type.isArray()) return (value as Result).map((item) => toJson(item, type.arrayChildren));
  if (typeof value === "bigint") return value.toString();
  if (type.baseType === "address") return getAddress(value as string);
  if (typeof value === "boolean") return value;
  return String(value);
}

const TICKETS_PURCHASED = INTERFACES[ContractKind.RAFFLE].getEvent("TicketsPurchased")!.topicHash;
const TRANSFER = INTERFACES[ContractKind.TICKET].getEvent("Transfer")!.topicHash;
const checksummed = new Map<string, string>();

/** Whether a 32-byte topic holds an address as Solidity writes one: twelve zero bytes, then the address. */
const cleanAddressTopic = (topic: string): boolean => topic.startsWith("0x000000000000000000000000");

/** A 32-byte topic holding an address, checksummed (memoized: buyers repeat, and checksums cost a keccak). */
function topicAddress(topic: string): string {
  const raw = `0x${topic.slice(26)}`;
  let address = checksummed.get(raw);
  if (!address) {
    if (checksummed.size > 100_000) checksummed.clear();
    address = getAddress(raw);
    checksummed.set(raw, address);
  }
  return address;
}

const word = (hex: string): string => BigInt(`0x${hex}`).toString();

/**
 * Purchases and mints are nearly every log of a busy raffle: read their fixed layout directly, ~100 times faster than
 * the generic ABI decoder. Anything off the expected shape goes through the generic path, which reports it.
 */
function decodeHotLog(kind: ContractKind, log: Pick<Log, "topics" | "data">): DecodedLog | null {
  const { topics, data } = log;
  if (kind === ContractKind.RAFFLE && topics[0] === TICKETS_PURCHASED && topics.length === 4 && data.length === 194) {
    return {
      name: "TicketsPurchased",
      status: IndexedEventStatus.APPLIED,
      argsImplyLog: cleanAddressTopic(topics[2]),
      args: {
        roundId: word(topics[1].slice(2)),
        account: topicAddress(topics[2]),
        firstTicketId: word(topics[3].slice(2)),
        quantity: word(data.slice(2, 66)),
        amount: word(data.slice(66, 130)),
        externalId: word(data.slice(130, 194)),
      },
    };
  }
  if (kind === ContractKind.TICKET && topics[0] === TRANSFER && topics.length === 4 && data === "0x") {
    return {
      name: "Transfer",
      status: IndexedEventStatus.APPLIED,
      argsImplyLog: cleanAddressTopic(topics[1]) && cleanAddressTopic(topics[2]),
      args: { from: topicAddress(topics[1]), to: topicAddress(topics[2]), tokenId: word(topics[3].slice(2)) },
    };
  }
  return null;
}

/** Reads a log with the ABI of its contract kind. Unknown topics and undecodable data are reported, not thrown. */
export function decodeLog(kind: ContractKind, log: Pick<Log, "topics" | "data">): DecodedLog {
  const hot = decodeHotLog(kind, log);
  if (hot) return hot;
  const iface = INTERFACES[kind];
  const fragment = log.topics.length > 0 ? iface.getEvent(log.topics[0]) : null;
  if (!fragment) return { name: null, args: null, status: IndexedEventStatus.UNKNOWN, reason: "unknown event topic" };
  try {
    const values = iface.decodeEventLog(fragment, log.data, log.topics);
    const args = Object.fromEntries(fragment.inputs.map((input, i) => [input.name, toJson(values[i], input)]));
    return { name: fragment.name, args, status: IndexedEventStatus.APPLIED };
  } catch (error) {
    return {
      name: fragment.name,
      args: null,
      status: IndexedEventStatus.MALFORMED,
      reason: error instanceof Error ? error.message.slice(0, 200) : "undecodable",
    };
  }
}
