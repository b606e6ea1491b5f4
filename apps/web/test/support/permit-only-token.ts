import * as fs from "node:fs";
import { ContractFactory, type Signer } from "ethers";
import { TokenType, allowPriceToken, deployMerchantRaffle } from "@raffle/chain";
import type { TestRaffle, TestWorld } from "@raffle/chain/testing";

/**
 * A token with EIP-2612 `permit` and no ERC-3009, as most permit tokens are: OpenZeppelin's ERC20Permit, unchanged,
 * with an open mint for the test. It is compiled here, with the platform's compiler (npm solc 0.8.30, cancun), rather
 * than added to contracts/: the platform's contracts and their test doubles stay as they are.
 */
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
contract PermitOnlyToken is ERC20Permit {
    constructor() ERC20("Permit Pearl", "PEARL") ERC20Permit("Permit Pearl") {}
    function mint(address to, uint256 amount) external { _mint(to, amount); }
}`;

export const PERMIT_ONLY_TOKEN_ABI = [
  "function mint(address to, uint256 amount)",
  "function balanceOf(address owner) view returns (uint256)",
  "function nonces(address owner) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)",
];

function compile(): { abi: unknown[]; bytecode: string } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- solc ships CommonJS without types
  const solc = require("solc") as { compile(input: string, callbacks: { import(path: string): { contents: string } }): string };
  const input = {
    language: "Solidity",
    sources: { "PermitOnlyToken.sol": { content: SOURCE } },
    settings: { evmVersion: "cancun", optimizer: { enabled: true, runs: 200 }, outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
  };
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), { import: (path) => ({ contents: fs.readFileSync(require.resolve(path), "utf8") }) }),
  );
  const errors = (output.errors ?? []).filter((error: { severity: string }) => error.severity === "error");
  if (errors.length > 0) throw new Error(`PermitOnlyToken does not compile: ${errors.map((error: { message: string }) => error.message).join("; ")}`);
  const contract = output.contracts["PermitOnlyToken.sol"].PermitOnlyToken;
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}

/** Deploys a permit-only token, lists it as a price token, and deploys the world's merchant a raffle priced in it (10 a ticket). */
export async function deployPermitOnlyRaffle(world: TestWorld, maxTicket = 100n): Promise<TestRaffle> {
  const { abi, bytecode } = compile();
  const token = await new ContractFactory(abi as never, bytecode, world.admin as Signer).deploy();
  await token.waitForDeployment();
  const address = await token.getAddress();
  await allowPriceToken(world.admin, world.deployment.raffleFactory, address);
  const price = { tokenType: TokenType.ERC20, token: address, tokenId: 0n, amount: 10n * 10n ** 18n };
  const deployed = await deployMerchantRaffle(world.merchant, {
    factory: world.deployment.raffleFactory,
    commission: 1_000n,
    timeLagBeforeRelease: 86_400n,
    ticketName: "Pearl Ticket",
    ticketSymbol: "TPEARL",
    firstRound: { price, maxTicket },
  });
  return { raffle: deployed.raffle, ticket: deployed.ticket, price };
}
