#!/usr/bin/env node
/**
 * `npm --workspace libs/chain run abi:generate` (or apps/web): writes the ABIs the SDK, the libraries
 * and the web app call the contracts with, as `as const` human-readable lines taken from the compiled artefacts
 * (contracts/artifacts, `npm run compile`), so none is written by hand: a renamed function, event, error or argument
 * changes these files, and then the TypeScript that uses them fails to compile (viem types every call from the lines).
 * Each list below names only what its users call, so a client does not carry the whole contract.
 *
 * `--check` writes nothing and exits 1 naming every file that is stale (the drift test and `npm run check` run it);
 * `--out DIR` reads and writes the files in DIR instead of libs/chain/src/generated (the drift test's stale copy).
 */
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "../../..");
const ARTIFACTS = path.join(ROOT, "contracts/artifacts/src");
const outFlag = process.argv.indexOf("--out");
const OUT = outFlag > 0 ? path.resolve(process.argv[outFlag + 1]) : path.join(__dirname, "../src/generated");

/** A list: its doc comment and, in order, [contract, kind, names] groups (names as the contract spells them). */
const RAFFLE_PLAYER_ERRORS = [
  "RafflePaused",
  "NoActiveRound",
  "RoundFull",
  "InvalidQuantity",
  "WalletLimitReached",
  "PriceMismatch",
  "InvalidTicketAsset",
  "WrongNativeValue",
  "InvalidBatchSize",
  "TicketNotInRound",
  "NoPrizeToClaim",
  "UnexpectedRoundStatus",
  "NotTicketOwnerOrApproved",
  "RandomnessNotTimedOut",
];

const FILES = {
  "client-abis.ts": {
    about: "What a client of the platform (the SDK, a game backend, the player app) calls and reads on the contracts.",
    lists: {
      RAFFLE_CLIENT_ABI: {
        doc: "A Raffle for a player's client: the round views, prices, batch claims and refunds, `finishDraw`, the events a purchase, a draw and a claim (its share and its item prize) emit, and every error a player's call can revert with, so a refusal decodes to its name.",
        groups: [
          [
            "Raffle",
            "function",
            [
              "getCurrentRoundInfo",
              "getRound",
              "getWinners",
              "roundRules",
              "getRoundRules",
              "priceOf",
              "roundOfTicket",
              "ticketContract",
              "commission",
              "paused",
              "MAX_TICKETS_PER_PURCHASE",
              "MAX_BATCH",
              "claimPrizes",
              "refundTickets",
              "enableRefunds",
              "finishDraw",
            ],
          ],
          [
            "Raffle",
            "event",
            [
              "TicketsPurchased",
              "RandomnessReceived",
              "WinnersDrawn",
              "PrizeClaimed",
              "ItemClaimed",
              "ItemTransferFailed",
              "RoundRefundable",
              "TicketRefunded",
            ],
          ],
          ["Raffle", "error", RAFFLE_PLAYER_ERRORS],
        ],
      },
      RAFFLE_FACTORY_CLIENT_ABI: {
        doc: "The platform's factory, for a client: the merchant of a raffle it deployed (the zero address for any other contract). A raffle's own `factory()` is no proof: a look-alike names a \"factory\" of its own.",
        groups: [["RaffleFactory", "function", ["merchantOf"]]],
      },
      RAFFLE_TICKET_CLIENT_ABI: {
        doc: "A ticket, for a client: its state and its on-chain JSON metadata.",
        groups: [["RaffleTicket", "function", ["ticketState", "tokenURI"]]],
      },
      EXCHANGE_CLIENT_ABI: {
        doc: "The Exchange, for a client of the API: the purchase and the claim a signed voucher pays for.",
        groups: [["Exchange", "function", ["purchaseRaffle", "claim"]]],
      },
      EXCHANGE_GASLESS_ABI: {
        doc: "The Exchange's gasless entry points, for whoever builds or submits a relayed call (the API, a relayer, the SDK): the purchases a relayer submits on the buyer's signatures, the claims and refunds it submits on the holder's, and the errors only they revert with, so a refusal decodes to its name. JSON fragments rather than lines: viem's type-level parser refuses these signatures (\"invalid at position 2\"), and ethers and viem both read JSON.",
        json: true,
        groups: [
          ["Exchange", "function", ["purchaseRaffleWithAuthorization", "purchaseRaffleWithPermit", "claimPrizesBySig", "refundTicketsBySig"]],
          [
            "Exchange",
            "error",
            ["IntentExpired", "BuyerSignatureInvalid", "HolderSignatureInvalid", "PermitRefused", "AuthorizationUnsupported", "RaffleNotListed"],
          ],
        ],
      },
      TICKET_TRANSFER_ABI: {
        doc: "The ticket's Transfer event, which names the tickets a purchase minted.",
        groups: [["RaffleTicket", "event", ["Transfer"]]],
      },
      ERC20_CLIENT_ABI: {
        doc: "What a client asks of an ERC-20 price token: its metadata, and the allowance a purchase needs (any ERC-20; here as OpenZeppelin's compiles it).",
        groups: [["TestToken", "function", ["name", "symbol", "decimals", "allowance", "approve"]]],
      },
    },
  },
  "app-abis.ts": {
    about: "What the player app and the merchant console call on the contracts, beyond the client ABIs.",
    lists: {
      PURCHASE_ERRORS_ABI: {
        doc: "Every error a purchase through the Exchange can revert with, from the Exchange, the raffle it calls and an ERC-20 price token, so a refusal decodes into its name and then into a sentence.",
        groups: [
          ["Exchange", "error", ["SignatureExpired", "NonceAlreadyUsed", "InvalidSignature", "InvalidSigner", "WrongPaymentValue", "EnforcedPause"]],
          ["Raffle", "error", ["RoundFull", "InvalidQuantity", "WalletLimitReached", "RafflePaused", "NoActiveRound", "PriceMismatch"]],
          ["TestToken", "error", ["ERC20InsufficientAllowance", "ERC20InsufficientBalance"]],
        ],
      },
      CONSOLE_FACTORY_ABI: {
        doc: "What the console's wallet calls on the factory (deployRaffle and the draw budget), with what a deployment can revert with, the raffle's constructor included.",
        groups: [
          ["RaffleFactory", "function", ["deployRaffle", "drawsUsedToday", "drawsPerDayOf"]],
          ["RaffleFactory", "event", ["RaffleDeployed"]],
          ["RaffleFactory", "error", ["AccessControlUnauthorizedAccount", "VrfNotConfigured"]],
          ["Raffle", "error", ["CommissionTooHigh", "TimeLagTooShort"]],
        ],
      },
      CONSOLE_RAFFLE_ABI: {
        doc: "What the console's wallet calls on a raffle (round rules, startRound, pause and unpause), with what they can revert with, the factory's checks of a round's price token included.",
        groups: [
          ["Raffle", "function", ["roundRules", "setRoundRules", "startRound", "ticketContract", "pause", "unpause"]],
          [
            "Raffle",
            "error",
            [
              "InvalidPrizeShares",
              "InvalidBundle",
              "BundleAboveRoundPrice",
              "MaxTicketBelowMinimum",
              "AccessControlUnauthorizedAccount",
              "RoundStillActive",
              "InvalidPriceAsset",
              "InvalidTicketAsset",
              "MaxTicketTooLarge",
              "RafflePaused",
              "RaffleNotPaused",
            ],
          ],
          ["RaffleFactory", "error", ["PriceTokenNotAllowed", "NotAContract", "MerchantNotActive"]],
        ],
      },
      ITEM_PRIZES_ABI: {
        doc: "A raffle's item prizes, for the player app (the next round's items and a round's escrowed items) and the console (setItemPrizes, returnItems), with what those calls can revert with.",
        groups: [
          ["Raffle", "function", ["itemPrizes", "getRoundItems", "setItemPrizes", "returnItems"]],
          [
            "Raffle",
            "error",
            ["InvalidItemPrize", "ItemNotEscrowed", "ItemAmountMismatch", "NoItemsToReturn", "PrizeNotReleasableYet", "UnexpectedRoundStatus"],
          ],
        ],
      },
      ITEM_ERC721_ABI: {
        doc: "An ERC721 item prize (any ERC721; here as OpenZeppelin's compiles it): its metadata, its owner and the raffle's approval to escrow it.",
        groups: [
          [
            "TestCollectible",
            "function",
            ["name", "tokenURI", "ownerOf", "getApproved", "isApprovedForAll", "setApprovalForAll", "supportsInterface"],
          ],
        ],
      },
      ITEM_ERC1155_ABI: {
        doc: "An ERC1155 item prize (any ERC1155; here as OpenZeppelin's compiles it): its metadata URI, a holder's balance and the raffle's approval to escrow it.",
        groups: [["TestItems1155", "function", ["uri", "balanceOf", "isApprovedForAll", "setApprovalForAll"]]],
      },
    },
  },
};

const artifactCache = new Map();
/** The compiled ABI of `name`, found anywhere under contracts/artifacts/src. */
function abiOf(name) {
  if (artifactCache.has(name)) return artifactCache.get(name);
  const find = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        const found = find(file);
        if (found) return found;
      } else if (entry.name === `${name}.json`) return file;
    }
    return null;
  };
  if (!fs.existsSync(ARTIFACTS)) throw new Error("contracts/artifacts is missing: run `npm run compile` first");
  const file = find(ARTIFACTS);
  if (!file) throw new Error(`no compiled contract ${name} under contracts/artifacts/src`);
  const { abi } = JSON.parse(fs.readFileSync(file, "utf8"));
  artifactCache.set(name, abi);
  return abi;
}

/** A parameter as abitype and ethers read it: tuples spelled out, `indexed` and the name kept. */
function param(item) {
  const type = item.type.startsWith("tuple") ? `(${item.components.map(param).join(", ")})${item.type.slice("tuple".length)}` : item.type;
  return [type, item.indexed ? "indexed" : "", item.name].filter(Boolean).join(" ");
}

function line(item) {
  const params = `(${item.inputs.map(param).join(", ")})`;
  if (item.type === "event") return `event ${item.name}${params}${item.anonymous ? " anonymous" : ""}`;
  if (item.type === "error") return `error ${item.name}${params}`;
  const mutability = item.stateMutability === "nonpayable" ? "" : ` ${item.stateMutability}`;
  const returns = item.outputs.length > 0 ? ` returns (${item.outputs.map(param).join(", ")})` : "";
  return `function ${item.name}${params}${mutability}${returns}`;
}

/** A compiled ABI item as a JSON fragment, without the compiler's `internalType` notes. */
function fragment(item) {
  const strip = (param) => {
    const { internalType: _internalType, components, ...rest } = param;
    return components ? { ...rest, components: components.map(strip) } : rest;
  };
  const { inputs, outputs, ...rest } = item;
  return { ...rest, ...(inputs ? { inputs: inputs.map(strip) } : {}), ...(outputs ? { outputs: outputs.map(strip) } : {}) };
}

/** The list's entries as source text: human-readable lines, or JSON fragments for a `json` list. */
function linesOf(groups, json = false) {
  const lines = [];
  for (const [contract, kind, names] of groups) {
    for (const name of names) {
      const items = abiOf(contract).filter((item) => item.type === kind && item.name === name);
      if (items.length !== 1) throw new Error(`${contract} has ${items.length} ${kind}s named ${name}: expected exactly one`);
      lines.push(JSON.stringify(json ? fragment(items[0]) : line(items[0])));
    }
  }
  return lines;
}

/** A doc comment wrapped at 120 columns. */
function docComment(text) {
  const lines = [];
  for (const word of text.split(" ")) {
    if (lines.length > 0 && lines[lines.length - 1].length + word.length < 117) lines[lines.length - 1] += ` ${word}`;
    else lines.push(word);
  }
  return `/**\n${lines.map((part) => ` * ${part}\n`).join("")} */`;
}

function render(file) {
  const header = [
    "// Generated from contracts/artifacts by libs/chain/scripts/abi-generate.cjs (`npm --workspace libs/chain run abi:generate`).",
    docComment(file.about),
    "",
  ];
  const body = Object.entries(file.lists).map(
    ([name, list]) =>
      `${docComment(list.doc)}\nexport const ${name} = [\n${linesOf(list.groups, list.json)
        .map((text) => `  ${text},\n`)
        .join("")}] as const;\n`,
  );
  return `${header.join("\n")}\n${body.join("\n")}`;
}

/** The file as prettier writes it, so that generated files pass the repository's format check. */
async function formatted(target, text) {
  const prettier = require("prettier");
  return prettier.format(text, { ...(await prettier.resolveConfig(target)), filepath: target });
}

async function main() {
  const check = process.argv.includes("--check");
  const stale = [];
  for (const [name, file] of Object.entries(FILES)) {
    const target = path.join(OUT, name);
    const text = await formatted(target, render(file));
    const current = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : null;
    if (current === text) continue;
    stale.push(path.relative(process.cwd(), target));
    if (!check) {
      fs.mkdirSync(OUT, { recursive: true });
      fs.writeFileSync(target, text);
    }
  }
  if (check && stale.length > 0) {
    console.error(`stale ABIs (run \`npm --workspace libs/chain run abi:generate\`): ${stale.join(", ")}`);
    process.exit(1);
  }
  console.log(stale.length === 0 ? "ABIs up to date" : `wrote ${stale.join(", ")}`);
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}
