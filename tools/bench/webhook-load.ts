import * as http from "node:http";
import type { AddressInfo } from "node:net";
import type { DataSource } from "typeorm";

/**
 * Webhooks delivering under load, for the sign benchmark: endpoints on a local receiver (204 to everything) and a
 * backlog of outbox messages written straight into the database, so the API's delivery loops are busy for the whole
 * sign run without the chain (which would compete for the cores itself) producing the events. `fill` before a run
 * and `clear` after it let runs with and without deliveries take turns.
 */
export interface WebhookLoad {
  /** 2xx answers the receiver gave so far. */
  delivered(): number;
  /** Queues `messagesPerEndpoint` messages for every endpoint. */
  fill(messagesPerEndpoint: number): Promise<void>;
  /** Drops what is still queued, so the delivery loops go idle. */
  clear(): Promise<void>;
  stop(): Promise<void>;
}

let batch = 0;

export async function startWebhookLoad(
  dataSource: DataSource,
  apiUrl: string,
  headers: Record<string, string>,
  endpoints: number,
): Promise<WebhookLoad> {
  let delivered = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      delivered += 1;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const ids: number[] = [];
  for (let i = 0; i < endpoints; i += 1) {
    const answer = await fetch(`${apiUrl}/webhooks`, { method: "POST", headers, body: JSON.stringify({ url, description: `bench ${i}` }) });
    if (answer.status !== 201) throw new Error(`registering a bench webhook failed: ${answer.status} ${await answer.text()}`);
    ids.push(((await answer.json()) as { id: number }).id);
  }
  // A ticket.purchased-sized body per message; one delivery per endpoint, in order. Ids carry the fill's number.
  const fill = async (messagesPerEndpoint: number) => {
    batch += 1;
    await dataSource.query(
      `WITH m AS (
       INSERT INTO webhook_message (id, merchant_id, type, removed, event_id, chain_id, block_number, body)
       SELECT 'msg_bench_' || e.id || '_' || $3::int || '_' || n, e.merchant_id, 'ticket.purchased', false, '31337:0xbench:' || $3::int || ':' || n, 31337, n,
              json_build_object('id', 'msg_bench_' || e.id || '_' || $3::int || '_' || n, 'type', 'ticket.purchased', 'removed', false,
                                'eventId', '31337:0xbench:' || $3::int || ':' || n, 'chainId', 31337, 'contractId', 1, 'roundId', '1',
                                'blockNumber', n, 'blockHash', '0x' || repeat('ab', 32), 'txHash', '0x' || repeat('cd', 32),
                                'logIndex', 0, 'createdAt', now(), 'data',
                                json_build_object('roundId', '1', 'ticketId', n::text, 'account', '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc'))::text
         FROM webhook_endpoint e, generate_series(1, $2::int) n WHERE e.id = ANY($1::int[])
       RETURNING id, seq, merchant_id)
     INSERT INTO webhook_delivery (endpoint_id, message_id, seq)
     SELECT split_part(m.id, '_', 3)::int, m.id, m.seq FROM m`,
      [ids, messagesPerEndpoint, batch],
    );
  };
  return {
    delivered: () => delivered,
    fill,
    clear: async () => {
      await dataSource.query(`DELETE FROM webhook_delivery WHERE endpoint_id = ANY($1::int[]) AND status = 'PENDING'`, [ids]);
    },
    stop: async () => {
      for (const id of ids) await fetch(`${apiUrl}/webhooks/${id}`, { method: "DELETE", headers });
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
