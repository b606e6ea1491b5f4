import type { DataSource } from "typeorm";

/**
 * Forgets everything indexed from one chain (raw events, block hashes, cursor, rounds, tickets, prize claims and the
 * raffle contracts registered from events), keeping merchants, API keys and issued vouchers. For a local chain
 * that restarted from genesis: the next indexer run rebuilds the projection from the new chain.
 */
export async function resetIndexedChain(dataSource: DataSource, chainId: number): Promise<void> {
  await dataSource.transaction(async (manager) => {
    await manager.query(`DELETE FROM claim WHERE claim_type = 'RAFFLE_PRIZE' AND contract_id IN (SELECT id FROM contract WHERE chain_id = $1)`, [
      chainId,
    ]);
    await manager.query(`DELETE FROM contract WHERE chain_id = $1 AND contract_module = 'RAFFLE'`, [chainId]);
    await manager.query(`DELETE FROM price WHERE id NOT IN (SELECT price_id FROM round)`);
    await manager.query(`DELETE FROM indexer_event WHERE chain_id = $1`, [chainId]);
    await manager.query(`DELETE FROM indexer_block WHERE chain_id = $1`, [chainId]);
    await manager.query(`DELETE FROM indexer_cursor WHERE chain_id = $1`, [chainId]);
    await manager.query(`DELETE FROM indexer_undo WHERE chain_id = $1`, [chainId]);
  });
}
