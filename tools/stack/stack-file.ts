import * as fs from "node:fs";
import * as path from "node:path";

/** One chain of the stack: its node, its platform contracts and the demo merchant's raffles on it. */
export interface StackChain {
  chainId: number;
  rpcUrl: string;
  wsUrl: string;
  exchange: string;
  factory: string;
  vrfCoordinator: string;
  priceToken: string;
  raffles: StackRaffle[];
}

/**
 * A demo raffle: `ERC20` and `NATIVE` (one winner, the default rules) on each chain, and on the first chain
 * `THREE_WINNERS`, priced in the demo token with the rules of raffle v2 (`rules`), and `ITEMS`, whose first prize is
 * 70% of the pot and a demo ERC721 sword and second 30% and a stack of demo ERC1155 potions (`items`).
 */
export interface StackRaffle {
  kind: "ERC20" | "NATIVE" | "THREE_WINNERS" | "ITEMS";
  contractId: number | null;
  raffle: string;
  ticket: string;
  /** The round rules it was deployed with (amounts in the token's smallest unit); absent for the default rules. */
  rules?: { prizeShares: number[]; minTickets: number; maxTicketsPerWallet: number; bundles: Array<{ quantity: number; price: string }> };
  /**
   * The item raffle's prizes: position 1 a sword of the `sword` ERC721 (a new one each round), position 2
   * `potionsPerRound` of the `potions` ERC1155's id `potionId`, escrowed from and returned to the item `wallet`.
   */
  items?: { wallet: string; sword: string; potions: string; potionId: string; potionsPerRound: string };
}

/**
 * What `npm start` writes to `.local/stack.json` for scripts (the demo, tests, operators). `chains` lists every chain;
 * the top-level chain facts (`rpcUrl`, `chainId`, `contracts`) are the first chain's.
 */
export interface StackFile {
  apiUrl: string;
  /** The player app (public sale with Sign-In with Ethereum), built and served by the stack. */
  webUrl: string;
  /** The merchant console (same web app, /console/): sign in with the demo merchant's wallet (`merchant`). */
  consoleUrl: string;
  docsUrl: string;
  apiKey: string;
  rpcUrl: string;
  chainId: number;
  /** Where the stack serves its embedded database while it runs (`npm run api-key` connects there). */
  databaseUrl: string;
  /** The embedded database's folder, which the stack's process owns while it runs. */
  pgliteDir: string;
  /** The stack's process: the file describes a running stack only while it lives (the file goes on a clean stop). */
  pid: number;
  contracts: {
    exchange: string;
    raffleFactory: string;
    vrfCoordinator: string;
    priceToken: string;
    raffles: StackChain["raffles"];
  };
  chains: StackChain[];
  merchant: { wallet: string; privateKey: string };
  players: Array<{ address: string; privateKey: string }>;
  /** A player holding the demo token and 0 ETH (well-known local key): it buys with "Buy without gas". */
  gaslessPlayer: { address: string; privateKey: string };
}

/** The stack's players: Hardhat's default accounts #5 to #9, funded with ETH by the node and with GOLD by the stack. */
export const STACK_PLAYER_INDEXES = [5, 6, 7, 8, 9];

/** Where the stack keeps its database and facts: `.local/` at the repository root unless STACK_DIR says otherwise. */
export const STACK_DIR = path.resolve(process.env.STACK_DIR ?? path.join(__dirname, "../../.local"));
export const STACK_FILE = path.join(STACK_DIR, "stack.json");

export function writeStackFile(stack: StackFile, file = STACK_FILE): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(stack, null, 2)}\n`, { mode: 0o600 });
}

export function removeStackFile(file = STACK_FILE): void {
  fs.rmSync(file, { force: true });
}

export function readStackFile(file = STACK_FILE): StackFile {
  if (!fs.existsSync(file)) throw new Error(`no ${file}: start the stack first with \`npm start\``);
  return JSON.parse(fs.readFileSync(file, "utf8")) as StackFile;
}
