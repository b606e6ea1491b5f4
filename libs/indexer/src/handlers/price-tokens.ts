import { ZeroAddress } from "ethers";
import type { EntityManager } from "typeorm";
import { tokenTypeName } from "@raffle/chain";
import { richText } from "@raffle/db";

import type { TokenMetadataReader } from "../token-metadata";
import { insertContract, type AssetArgs } from "./shared";

export interface PriceTokensDeps {
  chainId: number;
  platformMerchantId: number;
  tokens: TokenMetadataReader;
}

/**
 * A round's price as rows: a price, its component, and the price token as a contract row with one template and its
 * token "0" (created on first use, never removed). The token rows' ids are cached: the one thing a handler remembers
 * between events, hence `forget()`.
 */
export class PriceTokens {
  private readonly cache = new Map<string, { contractId: number; templateId: number }>();

  constructor(private readonly deps: PriceTokensDeps) {}

  /**
   * Forgets the row ids it caches. A rollback (here, or by another process while this one did not lead) may have
   * deleted the rows they name: a price token first used in a removed block loses its contract row, and a cached id
   * would then break every later round priced in that token.
   */
  forget(): void {
    this.cache.clear();
  }

  async insertPrice(manager: EntityManager, asset: AssetArgs, at: Date): Promise<number> {
    const tokenType = tokenTypeName(BigInt(asset.tokenType));
    const token = await this.ensureTokenContract(manager, tokenType, asset.token, at);
    const [{ id: priceId }] = await manager.query(`INSERT INTO price DEFAULT VALUES RETURNING id`);
    await manager.query(
      `INSERT INTO price_component (token_type, contract_id, template_id, token_id, amount, price_id)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [tokenType, token.contractId, token.templateId, asset.tokenId, asset.amount, priceId],
    );
    return priceId;
  }

  private async ensureTokenContract(
    manager: EntityManager,
    tokenType: string,
    address: string,
    at: Date,
  ): Promise<{ contractId: number; templateId: number }> {
    const cached = this.cache.get(address);
    if (cached) return cached;
    const native = address === ZeroAddress;
    const meta = native ? { name: "Native coin", symbol: "ETH", decimals: 18 } : await this.deps.tokens.read(address, tokenType === "ERC20");
    const contractId = await insertContract(manager, this.deps.chainId, {
      address,
      merchantId: this.deps.platformMerchantId,
      title: meta.name,
      name: meta.name,
      symbol: meta.symbol,
      decimals: meta.decimals,
      contractType: tokenType,
      features: [],
      module: "HIERARCHY",
      parameters: {},
      fromBlock: 0,
      at,
      raffleContractId: null,
    });
    let [template] = await manager.query(`SELECT id FROM template WHERE contract_id = $1 ORDER BY id LIMIT 1`, [contractId]);
    if (!template) {
      [template] = await manager.query(
        `INSERT INTO template (title, description, contract_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) RETURNING id`,
        [meta.name, richText(meta.name), contractId, at],
      );
      await manager.query(
        `INSERT INTO token (token_id, template_id, metadata, created_at, updated_at) VALUES ('0', $1, '{}', $2, $2)
         ON CONFLICT (template_id, token_id) DO NOTHING`,
        [template.id, at],
      );
    }
    const entry = { contractId, templateId: template.id as number };
    this.cache.set(address, entry);
    return entry;
  }
}
