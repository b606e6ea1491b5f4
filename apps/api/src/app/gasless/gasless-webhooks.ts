import { ZeroHash } from "ethers";
import type { EntityManager } from "typeorm";
import { newWebhookMessageId } from "@raffle/indexer";

import type { GaslessRequestDto } from "./gasless.dto";

export type GaslessWebhookType = "gasless.sent" | "gasless.mined" | "gasless.failed";

/**
 * Writes a `gasless.*` message to the webhook outbox, in the caller's transaction with the state change it announces,
 * for every enabled endpoint of the merchant subscribed to the type. It is no chain event: the body has the outbox's
 * shape (`eventId` names the request and its new state; block fields are the mined transaction's, else zero) and
 * `data` is the GaslessRequestDto.
 */
export async function writeGaslessWebhook(
  manager: EntityManager,
  merchantId: number,
  type: GaslessWebhookType,
  request: GaslessRequestDto,
  block: { number: number; hash: string } | null,
): Promise<void> {
  const endpoints: Array<{ id: number }> = await manager.query(
    `SELECT id FROM webhook_endpoint WHERE merchant_id = $1 AND disabled_at IS NULL AND $2 = ANY(events)`,
    [merchantId, type],
  );
  if (endpoints.length === 0) return;
  const id = newWebhookMessageId();
  const eventId = `gasless:${request.id}:${request.state}`;
  const body = JSON.stringify({
    id,
    type,
    removed: false,
    eventId,
    chainId: request.chainId,
    contractId: request.contractId,
    roundId: null,
    blockNumber: block?.number ?? 0,
    blockHash: block?.hash ?? ZeroHash,
    txHash: request.txHash ?? ZeroHash,
    logIndex: 0,
    createdAt: new Date().toISOString(),
    data: request,
  });
  await manager.query(
    `WITH message AS (
       INSERT INTO webhook_message (id, merchant_id, type, removed, event_id, chain_id, block_number, body)
       VALUES ($1, $2, $3, false, $4, $5, $6, $7) RETURNING id, seq)
     INSERT INTO webhook_delivery (endpoint_id, message_id, seq)
     SELECT endpoint_id, message.id, message.seq FROM unnest($8::int[]) AS endpoint_id, message`,
    [id, merchantId, type, eventId, request.chainId, block?.number ?? 0, body, endpoints.map((endpoint) => endpoint.id)],
  );
}
