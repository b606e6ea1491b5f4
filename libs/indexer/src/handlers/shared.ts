import type { EntityManager } from "typeorm";
import { richText } from "@raffle/db";

import type { IndexedEvent } from "../indexed-event";
import type { RegisteredContract } from "../registry";

/** Helpers more than one family of handlers uses. */

/** An asset as the contracts' events carry it (decoded: integers as decimal strings). */
export interface AssetArgs {
  tokenType: string;
  token: string;
  tokenId: string;
  amount: string;
}

/** Rows of an `UPDATE ... RETURNING`: TypeORM answers UPDATE and DELETE with `[rows, affectedCount]`. */
export async function updateReturning<T>(manager: EntityManager, sql: string, parameters: unknown[]): Promise<T[]> {
  const result = await manager.query(sql, parameters);
  return (Array.isArray(result[0]) && typeof result[1] === "number" ? result[0] : result) as T[];
}

export interface ContractRow {
  address: string;
  merchantId: number;
  title: string;
  name: string;
  symbol: string;
  decimals: number;
  contractType: string | null;
  features: string[];
  module: string;
  parameters: object;
  fromBlock: number;
  at: Date;
  raffleContractId: number | null;
}

/** A contract row of `chainId` (kept as it is when the address is known); returns its id. */
export async function insertContract(manager: EntityManager, chainId: number, row: ContractRow): Promise<number> {
  const [{ id }] = await manager.query(
    `INSERT INTO contract (address, chain_id, title, description, merchant_id, name, symbol, decimals, from_block,
                           parameters, contract_type, contract_features, contract_module, raffle_contract_id,
                           indexed_block, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $9, $15, $15)
     ON CONFLICT (chain_id, address) DO UPDATE SET address = EXCLUDED.address RETURNING id`,
    [
      row.address,
      chainId,
      row.title,
      richText(row.title),
      row.merchantId,
      row.name,
      row.symbol,
      row.decimals,
      row.fromBlock,
      JSON.stringify(row.parameters),
      row.contractType,
      `{${row.features.join(",")}}`,
      row.module,
      row.raffleContractId,
      row.at,
    ],
  );
  return id;
}

/**
 * A drawn round becomes CLAIMED once every position's share is claimed and no item is left in escrow, as the Raffle's
 * `claimPrizes` decides (an item whose transfer failed keeps the round open until it is claimed again).
 */
export async function markRoundClaimedIfSettled(manager: EntityManager, roundRowId: number, at: Date): Promise<void> {
  await manager.query(
    `UPDATE round SET round_status = 'CLAIMED', updated_at = $2
      WHERE id = $1 AND round_status = 'DRAWN'
        AND NOT EXISTS (SELECT 1 FROM round_winner w WHERE w.round_id = $1 AND w.claim_status = 'UNCLAIMED')
        AND NOT EXISTS (SELECT 1 FROM round_item i WHERE i.round_id = $1 AND i.status = 'ESCROWED')`,
    [roundRowId, at],
  );
}

export async function merchantOf(manager: EntityManager, contractId: number): Promise<number> {
  const [{ merchant_id: merchantId }] = await manager.query(`SELECT merchant_id FROM contract WHERE id = $1`, [contractId]);
  return merchantId;
}

/** Paused / Unpaused of a raffle or of the Exchange. */
export async function pauseChanged(manager: EntityManager, contract: RegisteredContract, event: IndexedEvent): Promise<void> {
  await manager.query(`UPDATE contract SET is_paused = $2, updated_at = $3 WHERE id = $1`, [
    contract.id,
    event.name === "Paused",
    event.blockTimestamp,
  ]);
}
