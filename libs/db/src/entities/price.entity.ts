import { Column, Entity, Index, JoinColumn, ManyToOne, OneToMany, PrimaryGeneratedColumn } from "typeorm";

import { ContractType } from "../enums";
import { ContractEntity } from "./contract.entity";
import { TemplateEntity } from "./template.entity";

/** Spec 2.4: a price is a list of components. */
@Entity({ name: "price" })
export class PriceEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @OneToMany(() => PriceComponentEntity, (component) => component.price, { cascade: true })
  components?: PriceComponentEntity[];
}

/** Spec 2.5: one asset of a price; `amount` in the token's smallest unit. */
@Entity({ name: "price_component" })
@Index(["priceId"])
export class PriceComponentEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: "enum", enum: ContractType })
  tokenType!: ContractType;

  @Column({ type: "integer" })
  contractId!: number;

  @ManyToOne(() => ContractEntity, { onDelete: "CASCADE" })
  @JoinColumn({ name: "contract_id" })
  contract?: ContractEntity;

  @Column({ type: "integer" })
  templateId!: number;

  @ManyToOne(() => TemplateEntity, { onDelete: "CASCADE" })
  @JoinColumn({ name: "template_id" })
  template?: TemplateEntity;

  @Column({ type: "numeric", precision: 78, scale: 0, nullable: true })
  tokenId!: string | null;

  @Column({ type: "numeric", precision: 78, scale: 0 })
  amount!: string;

  @Column({ type: "integer", select: false })
  priceId!: number;

  @ManyToOne(() => PriceEntity, (price) => price.components, { onDelete: "CASCADE" })
  @JoinColumn({ name: "price_id" })
  price?: PriceEntity;
}
