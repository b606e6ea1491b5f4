import { Contract, type Signer } from "ethers";
import { assetFromJson, signPermit, signPurchaseAuthorization, signPurchaseIntent, tokenDomain, type GaslessPurchase } from "@raffle/chain";

import type { GaslessPurchaseRequest, GaslessRequest, TicketSignature } from "./types";

const TOKEN_ABI = [
  "function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)",
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "function nonces(address owner) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
];

export interface BuyWithoutGasOptions {
  /** The voucher `signTicket` answered for the buyer (its `account` is the signer's address). */
  voucher: TicketSignature;
  contractId: number;
  /** The platform's Exchange: the voucher's verifying contract. */
  exchange: string;
  /** The buyer's wallet, connected to a provider of the raffle's chain; it signs typed data only and pays no gas. */
  signer: Signer;
  /** ERC-3009 (one signature) or EIP-2612 (permit + intent); by default the one the price token supports, ERC-3009 first. */
  method?: "authorization" | "permit";
  /** Wait until the request is mined or failed (default: answer once queued). */
  wait?: boolean | { timeoutMs?: number; intervalMs?: number };
}

/** What the client class lends the gasless buy: its two calls. */
export interface GaslessCalls {
  submitGaslessPurchase(body: GaslessPurchaseRequest): Promise<GaslessRequest>;
  getGaslessRequest(id: string): Promise<GaslessRequest>;
}

/** Signs the voucher's purchase as the price token allows, queues it with the API and, if asked, waits for its end. */
export async function buyWithoutGas(api: GaslessCalls, options: BuyWithoutGasOptions): Promise<GaslessRequest> {
  const { voucher, signer, exchange, contractId } = options;
  const provider = signer.provider;
  if (!provider) throw new Error("buyWithoutGas needs a signer connected to a provider of the raffle's chain");
  const account = await signer.getAddress();
  const chainId = Number((await provider.getNetwork()).chainId);
  const token = new Contract(voucher.price.token, TOKEN_ABI, provider);
  const [, name, version] = await token.eip712Domain();
  const domain = tokenDomain(name, version, chainId, voucher.price.token);
  const method = options.method ?? (await supportsAuthorization(token));
  const params = {
    ...voucher.params,
    externalId: BigInt(voucher.params.externalId),
    expiresAt: BigInt(voucher.params.expiresAt),
  };
  const purchase: GaslessPurchase = {
    chainId,
    exchange,
    voucher: { account, params, item: assetFromJson(voucher.item), price: assetFromJson(voucher.price) },
  };
  const deadline = BigInt(voucher.expiresAt);
  const price = BigInt(voucher.price.amount);

  let body: GaslessPurchaseRequest;
  if (method === "authorization") {
    const signed = await signPurchaseAuthorization(signer, domain, purchase, deadline);
    body = {
      contractId,
      chainId,
      voucher,
      authorization: { validAfter: "0", validBefore: signed.validBefore.toString(), signature: signed.signature },
    };
  } else {
    const intent = await signPurchaseIntent(signer, purchase, deadline);
    const allowance: bigint = await token.allowance(account, exchange);
    const permit =
      allowance >= price
        ? undefined
        : await signPermit(signer, domain, { owner: account, spender: exchange, value: price, nonce: await token.nonces(account), deadline });
    body = {
      contractId,
      chainId,
      voucher,
      intent: { deadline: intent.deadline.toString(), signature: intent.signature },
      ...(permit ? { permit: { value: permit.value.toString(), deadline: permit.deadline.toString(), v: permit.v, r: permit.r, s: permit.s } } : {}),
    };
  }
  const queued = await api.submitGaslessPurchase(body);
  return options.wait ? waitForGasless(api, queued.id, options.wait === true ? {} : options.wait) : queued;
}

async function supportsAuthorization(token: Contract): Promise<"authorization" | "permit"> {
  try {
    await token.authorizationState("0x0000000000000000000000000000000000000001", `0x${"00".repeat(32)}`);
    return "authorization";
  } catch {
    return "permit";
  }
}

/** Polls a request until it is mined or failed; rejects after `timeoutMs` (default 120 s) with the last state. */
export async function waitForGasless(
  api: Pick<GaslessCalls, "getGaslessRequest">,
  id: string,
  { timeoutMs = 120_000, intervalMs = 1_000 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<GaslessRequest> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const request = await api.getGaslessRequest(id);
    if (request.state === "mined" || request.state === "failed") return request;
    if (Date.now() >= until) throw new Error(`gasless request ${id} is still ${request.state} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
