// Runs in an empty CommonJS project outside the workspace where only the packed SDK and ethers are installed: buys one
// ticket with buyTicket() and prints what it bought as one JSON line. The provider is ethers' default, as a game
// backend's would be (its 250 ms call cache included: an ERC20 purchase right after its approve must not reuse its
// nonce).
const { JsonRpcProvider, Wallet } = require("ethers");
const { RaffleApi, buyTicket } = require("@raffle/sdk");

async function main() {
  const { API_URL, API_KEY, RPC_URL, PLAYER_PRIVATE_KEY, CONTRACT_ID, EXCHANGE } = process.env;
  const provider = new JsonRpcProvider(RPC_URL);
  const signer = new Wallet(PLAYER_PRIVATE_KEY, provider);
  const api = new RaffleApi({ baseUrl: API_URL, apiKey: API_KEY });
  const bought = await buyTicket({ api, signer, contractId: Number(CONTRACT_ID), exchange: EXCHANGE });
  provider.destroy();
  // Every file of ethers' CommonJS or ESM build the process loaded: one build means one copy of ethers.
  const ethersCopies = new Set(
    Object.keys(require.cache)
      .filter((file) => /node_modules\/ethers\/lib\.(commonjs|esm)\//.test(file))
      .map((file) => file.match(/lib\.(commonjs|esm)/)[1]),
  ).size;
  console.log(
    JSON.stringify({
      sdk: require.resolve("@raffle/sdk"),
      ethersCopies,
      ticketId: bought.ticketId.toString(),
      roundId: bought.round.id,
      txHash: bought.txHash,
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
