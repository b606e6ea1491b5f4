import { eventually } from "@raffle/testing";

import type { ApiHarness } from "./api-harness";

/**
 * The API id of a raffle once the indexer has projected it, and its active round when `withRound` (the round starts
 * in a later block than the deployment, so seeing the contract does not mean seeing its round).
 */
export async function indexedRaffleId(harness: Pick<ApiHarness, "http" | "world">, key: string, address: string, withRound = true): Promise<number> {
  const auth = { Authorization: `Bearer ${key}` };
  const contractId = await eventually(async () => {
    const { body } = await harness.http
      .get("/raffle/contracts")
      .query({ chainId: harness.world.deployment.chainId, take: 100 })
      .set(auth)
      .expect(200);
    const found = body.rows.find((row: { address: string }) => row.address === address);
    if (!found) throw new Error(`raffle ${address} not indexed yet`);
    return found.id as number;
  });
  if (withRound) await eventually(() => harness.http.get("/rounds/current").query({ contractId }).set(auth).expect(200));
  return contractId;
}
