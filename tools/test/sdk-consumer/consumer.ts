// Type-checked against the installed package's .d.ts (strict, library checks on): what a TypeScript user of the SDK
// writes, in a CommonJS project and in an ES module one (the same file: `module: node16` follows package.json "type"). Not run.
import { Wallet } from "ethers";
import { RaffleApi, RaffleApiError, buyTicket, type Claim, type ProblemCode, type Round, type TicketSignature } from "@raffle/sdk";

export async function useEveryEndpoint(api: RaffleApi, wallet: Wallet): Promise<string[]> {
  const contracts = await api.listAllRaffleContracts(31337);
  const round: Round = await api.currentRound(contracts[0].id);
  const voucher: TicketSignature = await api.signTicket({ account: wallet.address, contractId: round.contractId });
  const created: Claim = await api.createClaim({
    account: wallet.address,
    items: [{ tokenType: "ERC20", token: voucher.price.token, tokenId: "0", amount: "1" }],
    ttlSeconds: 3_600,
  });
  const fields: Array<string | number | null> = [created.nonce, created.signature, created.expiresAt, created.redeemedTxHash];
  const page = await api.listClaims({ account: wallet.address, claimStatus: "NEW", take: 10 });
  await api.getClaim(page.rows[0].id);
  await api.cancelClaim(created.id);
  const { status } = await api.health();
  const readiness = await api.ready();
  const bought = await buyTicket({ api, signer: wallet, contractId: round.contractId, exchange: voucher.params.receiver });
  return [status, readiness.chains[0].signer.status, bought.ticketId.toString(), String(fields.length)];
}

export function isRetryable(error: unknown): boolean {
  const full: ProblemCode = "roundFull";
  // @ts-expect-error: not a code of the API
  const unknown: ProblemCode = "noSuchCode";
  return error instanceof RaffleApiError && (error.code === full || error.code === unknown || error.retryable);
}
