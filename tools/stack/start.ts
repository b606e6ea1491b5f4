/**
 * `npm start`: the whole system on this machine, on embedded defaults.
 *
 *   npm start [-- --fresh]     PORT (API, 3000), WEB_PORT (player app, 5173), CHAIN_PORT (8545), SECOND_CHAIN_PORT (CHAIN_PORT + 1), RAFFLE_SCHEDULE ("* * * * *")
 */
import { takenPorts } from "./ports";
import { STACK_FILE } from "./stack-file";

function banner(lines: string[]): void {
  process.stdout.write(`\n${lines.join("\n")}\n\n`);
}

async function main(): Promise<void> {
  process.env.LOG_LEVEL ??= "silent";
  const verbose = process.argv.includes("--verbose");
  const chainPort = Number(process.env.CHAIN_PORT ?? 8545);
  const ports = {
    apiPort: Number(process.env.PORT ?? 3000),
    webPort: Number(process.env.WEB_PORT ?? 5173),
    chainPorts: [chainPort, Number(process.env.SECOND_CHAIN_PORT ?? chainPort + 1)] as [number, number],
  };
  const taken = await takenPorts([
    { port: ports.chainPorts[0], what: "the first local chain", setting: "CHAIN_PORT" },
    { port: ports.chainPorts[1], what: "the second local chain", setting: "SECOND_CHAIN_PORT" },
    { port: ports.apiPort, what: "the API", setting: "PORT" },
    { port: ports.webPort, what: "the player app", setting: "WEB_PORT" },
  ]);
  if (taken.length > 0) {
    process.stderr.write(`npm start cannot start the stack:\n${taken.map((line) => `  ${line}`).join("\n")}\n`);
    process.exit(1);
  }
  // The stack's modules (ethers, the bindings, the database) load only now: a taken port is named within a second or
  // two, not after ts-node has transpiled all of them.
  const [{ formatUnits }, { stopOnAnyEnd }, { startLocalStack }] = await Promise.all([
    import("ethers"),
    import("./lifecycle"),
    import("./local-stack"),
  ]);
  // Until the stack is up there is nothing to stop in order: ending the process takes the started nodes with it.
  let stopStack: () => Promise<void> = async () => undefined;
  stopOnAnyEnd(
    () => stopStack(),
    (line) => process.stdout.write(`${line}\n`),
  );
  const { stack, stop } = await startLocalStack({
    ...ports,
    fresh: process.argv.includes("--fresh"),
    schedule: process.env.RAFFLE_SCHEDULE ?? "* * * * *",
    progress: (step) => process.stdout.write(`${step}\n`),
    log: (message, fields) => {
      if (verbose) process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), message, ...fields })}\n`);
    },
  });

  const [erc20] = stack.contracts.raffles;
  const threeWinners = stack.contracts.raffles.find((raffle) => raffle.kind === "THREE_WINNERS");
  const itemRaffle = stack.contracts.raffles.find((raffle) => raffle.kind === "ITEMS");
  const auth = `-H "Authorization: Bearer ${stack.apiKey}"`;
  banner([
    "The raffle platform is running: one API, one database and one merchant worker serve two chains.",
    `  Player app    ${stack.webUrl}   (raffles on public sale: connect a browser wallet on a local chain, sign in, buy)`,
    `  Console       ${stack.consoleUrl}   (merchant console: import the demo merchant's key below into a browser wallet, then Sign in with Ethereum)`,
    `  Merchant      ${stack.merchant.wallet}  ${stack.merchant.privateKey}   (the local demo merchant: well-known local key, never use it elsewhere)`,
    `  API           ${stack.apiUrl}   (OpenAPI: ${stack.docsUrl})`,
    `  API key       ${stack.apiKey}   (demo merchant ${stack.merchant.wallet})`,
    ...stack.chains.flatMap((chain) => [
      `  Chain ${chain.chainId}   ${chain.rpcUrl}   Exchange ${chain.exchange}`,
      `                raffles ${chain.raffles.map((raffle) => `${raffle.kind} #${raffle.contractId} ${raffle.raffle}`).join(", ")}`,
    ]),
    ...(threeWinners
      ? [
          `  Three winners  raffle #${threeWinners.contractId} on chain ${stack.chainId}: prizes ${threeWinners.rules!.prizeShares.map((share) => `${share / 100}%`).join(" / ")}, ` +
            `at least ${threeWinners.rules!.minTickets} tickets (else every ticket is refunded), 10 GOLD a ticket, ` +
            `${threeWinners.rules!.bundles.map((bundle) => `${bundle.quantity} for ${formatUnits(bundle.price, 18)}`).join(", ")}`,
        ]
      : []),
    ...(itemRaffle?.items
      ? [
          `  Item prizes   raffle #${itemRaffle.contractId} on chain ${stack.chainId}: 1st prize 70% of the pot and a Legendary Sword (ERC721 ${itemRaffle.items.sword}), ` +
            `2nd 30% and ${itemRaffle.items.potionsPerRound} Healing Potions (ERC1155 ${itemRaffle.items.potions} id ${itemRaffle.items.potionId}), escrowed when each round starts; ` +
            `at least ${itemRaffle.rules!.minTickets} tickets (else every ticket is refunded and the items go back to the item wallet ${itemRaffle.items.wallet}), 10 GOLD a ticket; ` +
            `the demo merchant holds Legendary Swords #2 and #3 and 50 Healing Potions of its own to choose as prizes in the console`,
        ]
      : []),
    "  Players (funded with ETH and GOLD; well-known local keys, never use them elsewhere):",
    ...stack.players.map((player) => `    ${player.address}  ${player.privateKey}`),
    "  Player without gas (holds GOLD only, 0 ETH: buys with Buy without gas, claims with Claim without gas; well-known local dev key, never use it elsewhere):",
    `    ${stack.gaslessPlayer.address}  ${stack.gaslessPlayer.privateKey}`,
    "",
    "Try it:",
    `  curl -s "${stack.apiUrl}/raffle/contracts?skip=0&take=25" ${auth}          (every chain; add &chainId=${stack.chainId} for one)`,
    `  curl -s "${stack.apiUrl}/rounds/current?contractId=${erc20.contractId}" ${auth}`,
    `  curl -s -X POST "${stack.apiUrl}/raffle/ticket/sign" ${auth} -H "Content-Type: application/json" -d '{"account":"${stack.players[0].address}","contractId":${erc20.contractId}}'`,
    ...(threeWinners
      ? [
          `  curl -s -X POST "${stack.apiUrl}/raffle/ticket/sign" ${auth} -H "Content-Type: application/json" -d '{"account":"${stack.players[0].address}","contractId":${threeWinners.contractId},"quantity":5}'   (a bundle)`,
          `  curl -s "${stack.apiUrl}/rounds?contractId=${threeWinners.contractId}&skip=0&take=5" ${auth}   (past rounds, their winners and random words)`,
        ]
      : []),
    `  curl -s "${stack.apiUrl}/claims?account=${stack.players[0].address}&skip=0&take=25" ${auth}`,
    `  curl -s "${stack.apiUrl}/ready"                                  (each chain's head, index lag and signer)`,
    "",
    "Webhooks (this stack allows http:// and private hosts: WEBHOOK_ALLOW_PRIVATE_URLS=true; production requires https to public hosts):",
    `  curl -s -X POST "${stack.apiUrl}/webhooks" ${auth} -H "Content-Type: application/json" -d '{"url":"http://127.0.0.1:4000/webhooks"}'   # keep the "secret"`,
    `  curl -s "${stack.apiUrl}/webhooks/1/deliveries" ${auth}   # verify messages with verifyWebhook(secret, headers, rawBody) from @raffle/sdk`,
    "",
    `Facts for scripts: ${STACK_FILE}.  Demo: npm run demo.  Stop: Ctrl-C.`,
  ]);
  stopStack = stop;
  process.stdout.write("ready\n");
}

main().catch((error: unknown) => {
  process.stderr.write(`npm start failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
