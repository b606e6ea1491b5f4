// The ES module twin of buy.js, run in an empty "type": "module" project: the SDK's ESM build must load, and with it
// the consumer's own ESM ethers, not a second, CommonJS copy. Prints what it bought as one JSON line.
import { createRequire } from "node:module";
import { JsonRpcProvider, Wallet } from "ethers";
import { RaffleApi, buyTicket } from "@raffle/sdk";

const { API_URL, API_KEY, RPC_URL, PLAYER_PRIVATE_KEY, CONTRACT_ID, EXCHANGE } = process.env;
const provider = new JsonRpcProvider(RPC_URL);
const signer = new Wallet(PLAYER_PRIVATE_KEY, provider);
const api = new RaffleApi({ baseUrl: API_URL, apiKey: API_KEY });
const bought = await buyTicket({ api, signer, contractId: Number(CONTRACT_ID), exchange: EXCHANGE });
provider.destroy();
// No CommonJS file of ethers was loaded: the ESM build of the SDK imports the same ESM ethers as this file.
const commonJsEthers = Object.keys(createRequire(import.meta.url).cache).filter((file) => /node_modules\/ethers\//.test(file)).length;
console.log(
  JSON.stringify({
    sdk: new URL(import.meta.resolve("@raffle/sdk")).pathname,
    ethersCopies: commonJsEthers === 0 ? 1 : 2,
    ticketId: bought.ticketId.toString(),
    roundId: bought.round.id,
    txHash: bought.txHash,
  }),
);
