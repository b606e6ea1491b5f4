#!/usr/bin/env node
// `npm start` will run the whole local stack (chain, contracts, database, API, indexer, worker) once the
// local-stack issue lands. Until then it says so, and points at what works today.
console.error(
  [
    "npm start: the one-command local stack is not built yet.",
    "What works today:",
    "  npm test                                   # every test suite",
    "  ./node_modules/.bin/hardhat node           # (in contracts/) a local chain on 127.0.0.1:8545",
    "  RPC_URL=http://127.0.0.1:8545 npm run deploy:platform",
    "  RPC_URL=http://127.0.0.1:8545 npm run deploy:raffle",
  ].join("\n"),
);
process.exit(1);
