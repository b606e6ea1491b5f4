import { Column, Entity, Index, JoinColumn, ManyToOne } from "typeorm";

import { ContractFeature, ContractModule, ContractSecurity, ContractStatus, ContractType } from "../enums";
import { safeIntegerTransformer } from "../transformers";
import { TimestampedEntity } from "./base.entity";
import { MerchantEntity } from "./merchant.entity";

/** `parameters` of a raffle contract (spec 2.1); token contracts keep an empty object. */
export interface RaffleParameters {
  timeLagBeforeRelease: string;
  commission: string;
  schedule: string;
  roundId: number;
}

/** Spec 2.1. Addresses are stored EIP-55 checksummed; (chainId, address) is unique. */
@Entity({ name: "contract" })
@Index(["chainId", "address"], { unique: true })
@Index(["merchantId", "chainId", "contractModule"])
export class ContractEntity extends TimestampedEntity {
  @Column({ type: "varchar", length: 42 })
  address!: string;

  @Column({ type: "integer" })
  chainId!: number;

  @Column({ type: "varchar", length: 255, default: "" })
  title!: string;

  @Column({ type: "text", default: "" })
  description!: string;

  @Column({ type: "integer" })
  merchantId!: number;

  @ManyToOne(() => MerchantEntity, { onDelete: "CASCADE" })
  @JoinColumn({ name: "merchant_id" })
  merchant?: MerchantEntity;

  @Column({ type: "varchar", length: 1024, default: "" })
  imageUrl!: string;

  @Column({ type: "varchar", length: 255, default: "" })
  name!: string;

  @Column({ type: "varchar", length: 64, default: "" })
  symbol!: string;

  @Column({ type: "integer", default: 0 })
  decimals!: number;

  @Column({ type: "bigint", default: 0, transformer: safeIntegerTransformer })
  fromBlock!: number;

  @Column({ type: "integer", default: 0 })
  royalty!: number;

  @Column({ type: "varchar", length: 1024, default: "" })
  baseTokenURI!: string;

  @Column({ type: "jsonb", default: {} })
  parameters!: Partial<RaffleParameters>;

  @Column({ type: "boolean", default: false })
  isPaused!: boolean;

  /** Set by the merchant: wallet users may see and buy this raffle through Sign-In with Ethereum. Off by default. */
  @Column({ type: "boolean", default: false })
  publicSale!: boolean;

  @Column({ type: "enum", enum: ContractStatus, default: ContractStatus.ACTIVE })
  contractStatus!: ContractStatus;

  @Column({ type: "enum", enum: ContractType, nullable: true })
  contractType!: ContractType | null;

  @Column({ type: "enum", enum: ContractFeature, array: true, default: [] })
  contractFeatures!: ContractFeature[];

  @Column({ type: "enum", enum: ContractModule })
  contractModule!: ContractModule;

  @Column({ type: "enum", enum: ContractSecurity, default: ContractSecurity.ACCESS_CONTROL })
  contractSecurity!: ContractSecurity;

  /** For a ticket contract: the raffle it belongs to. */
  @Column({ type: "integer", nullable: true, select: false })
  raffleContractId!: number | null;

  /** Block of the event that registered this row: a reorg below it removes the row. */
  @Column({ type: "bigint", default: 0, transformer: safeIntegerTransformer, select: false })
  indexedBlock!: number;
}
