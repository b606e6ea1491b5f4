import type { EntityManager } from "typeorm";

import { ContractKind } from "./decode";

export interface RegisteredContract {
  id: number;
  address: string;
  kind: ContractKind;
  merchantId: number;
  /** Block from which this contract's logs matter. */
  fromBlock: number;
}

/** The contracts whose logs the indexer reads, by address. Rebuilt from the database after a rollback. */
export class Registry {
  private readonly byAddress = new Map<string, RegisteredContract>();

  constructor(private readonly platform: { exchange: string; raffleFactory: string }) {}

  get(address: string): RegisteredContract | undefined {
    return this.byAddress.get(address);
  }

  add(contract: RegisteredContract): void {
    this.byAddress.set(contract.address, contract);
  }

  addresses(): string[] {
    return [...this.byAddress.keys()];
  }

  async load(manager: EntityManager, chainId: number): Promise<void> {
    const rows: Array<{ id: number; address: string; module: string; type: string | null; merchant_id: number; from_block: string }> =
      await manager.query(
        `SELECT id, address, contract_module AS module, contract_type AS type, merchant_id, from_block
           FROM contract WHERE chain_id = $1 AND contract_module IN ('RAFFLE', 'SYSTEM')`,
        [chainId],
      );
    this.byAddress.clear();
    for (const row of rows) {
      const kind = this.kindOf(row.address, row.module, row.type);
      if (kind) this.add({ id: row.id, address: row.address, kind, merchantId: row.merchant_id, fromBlock: Number(row.from_block) });
    }
  }

  private kindOf(address: string, module: string, type: string | null): ContractKind | null {
    if (module === "RAFFLE") return type === "ERC721" ? ContractKind.TICKET : ContractKind.RAFFLE;
    if (address === this.platform.exchange) return ContractKind.EXCHANGE;
    if (address === this.platform.raffleFactory) return ContractKind.FACTORY;
    return null;
  }
}
