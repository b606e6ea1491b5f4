import { Wallet, parseEther, type JsonRpcProvider } from "ethers";
import { createSiweMessage } from "viem/siwe";
import { localDevPrivateKey, type TestToken } from "@raffle/chain";
import { MERCHANT_CONSOLE_SIWE_RESOURCE } from "@raffle/db";

/**
 * The local demo of buying without gas (issue #52): a player who holds the demo token and no ETH at all, and the demo
 * merchant's gasless settings switched on with a daily budget, as a merchant would in the console.
 */

/**
 * The mnemonic's account #20: Hardhat and anvil fund only the first 20, so it starts with 0 ETH on every local chain.
 * Its key is as well known as theirs (anyone can derive it): local chains only.
 */
export const GASLESS_PLAYER_INDEX = 20;
/** The demo merchant's gas budget per UTC day on the local chains, and its per-player daily limit. */
export const DEMO_GASLESS_BUDGET = parseEther("1");
export const DEMO_GASLESS_PLAYER_LIMIT = 50;

export function gaslessPlayer(): Wallet {
  return new Wallet(localDevPrivateKey(GASLESS_PLAYER_INDEX));
}

/** Funds the gasless player with the demo token only, and makes sure it holds no ETH (a dev chain's setBalance). */
export async function fundGaslessPlayer(provider: JsonRpcProvider, token: TestToken, amount: bigint): Promise<string> {
  const player = gaslessPlayer().address;
  await (await token.mint(player, amount)).wait();
  await provider.send("hardhat_setBalance", [player, "0x0"]);
  return player;
}

/**
 * Signs the merchant in to the console's API as the console does (Sign-In with Ethereum with the console's Resources
 * entry, from one of the API's WEB_ORIGINS) and switches gasless purchases on: `PUT /merchant/gasless`.
 */
export async function enableGasless(
  apiUrl: string,
  webOrigin: string,
  chainId: number,
  merchant: Wallet,
  settings = { dailyGasBudgetWei: DEMO_GASLESS_BUDGET.toString(), perPlayerDailyLimit: DEMO_GASLESS_PLAYER_LIMIT },
): Promise<void> {
  const call = async (method: string, route: string, body?: unknown, token?: string) => {
    const response = await fetch(`${apiUrl}${route}`, {
      method,
      headers: { ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (!response.ok) throw new Error(`${method} ${route} answered ${response.status} ${String(answer?.code ?? "")}`);
    return answer ?? {};
  };
  const { nonce } = await call("POST", "/merchant/siwe/nonce");
  const now = Date.now();
  const origin = new URL(webOrigin);
  const message = createSiweMessage({
    domain: origin.host,
    uri: origin.origin,
    address: merchant.address as `0x${string}`,
    chainId,
    version: "1",
    nonce: String(nonce),
    issuedAt: new Date(now),
    expirationTime: new Date(now + 5 * 60_000),
    statement: "Sign in to the merchant console of your raffles. This costs nothing.",
    resources: [MERCHANT_CONSOLE_SIWE_RESOURCE],
  });
  const { token } = await call("POST", "/merchant/siwe/verify", { message, signature: await merchant.signMessage(message) });
  await call("PUT", "/merchant/gasless", { enabled: true, ...settings }, String(token));
  await call("POST", "/merchant/logout", undefined, String(token)).catch(() => undefined);
}
