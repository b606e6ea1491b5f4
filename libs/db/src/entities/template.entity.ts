import { Column, Entity, Index, JoinColumn, ManyToOne, OneToMany } from "typeorm";

import { TemplateStatus } from "../enums";
import { TimestampedEntity } from "./base.entity";
import { ContractEntity } from "./contract.entity";
import { TokenEntity } from "./token.entity";

/** Spec 2.6: what a token contract offers; fungible contracts have one template with one token "0". */
@Entity({ name: "template" })
@Index(["contractId"])
export class TemplateEntity extends TimestampedEntity {
  @Column({ type: "varchar", length: 255, default: "" })
  title!: string;

  @Column({ type: "text", default: "" })
  description!: string;

  @Column({ type: "varchar", length: 1024, default: "" })
  imageUrl!: string;

  @Column({ type: "integer", nullable: true })
  priceId!: number | null;

  @Column({ type: "numeric", precision: 78, scale: 0, default: "0" })
  cap!: string;

  @Column({ type: "numeric", precision: 78, scale: 0, default: "0" })
  amount!: string;

  @Column({ type: "varchar", length: 255, nullable: true })
  cid!: string | null;

  @Column({ type: "enum", enum: TemplateStatus, default: TemplateStatus.ACTIVE })
  templateStatus!: TemplateStatus;

  @Column({ type: "integer" })
  contractId!: number;

  @ManyToOne(() => ContractEntity, { onDelete: "CASCADE" })
  @JoinColumn({ name: "contract_id" })
  contract?: ContractEntity;

  @OneToMany(() => TokenEntity, (token) => token.template)
  tokens?: TokenEntity[];
}
