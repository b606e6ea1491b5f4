import { Column, Entity, Index, JoinColumn, ManyToOne } from "typeorm";

import { TokenStatus } from "../enums";
import { TimestampedEntity } from "./base.entity";
import { TemplateEntity } from "./template.entity";

/** Spec 2.7. `tokenId` is the on-chain id as a decimal string. */
@Entity({ name: "token" })
@Index(["templateId", "tokenId"], { unique: true })
export class TokenEntity extends TimestampedEntity {
  @Column({ type: "varchar", length: 1024, nullable: true })
  imageUrl!: string | null;

  @Column({ type: "jsonb", default: {} })
  metadata!: Record<string, unknown>;

  @Column({ type: "numeric", precision: 78, scale: 0 })
  tokenId!: string;

  @Column({ type: "integer", default: 0 })
  royalty!: number;

  @Column({ type: "varchar", length: 255, nullable: true })
  cid!: string | null;

  @Column({ type: "enum", enum: TokenStatus, default: TokenStatus.MINTED })
  tokenStatus!: TokenStatus;

  @Column({ type: "integer" })
  templateId!: number;

  @ManyToOne(() => TemplateEntity, (template) => template.tokens, { onDelete: "CASCADE" })
  @JoinColumn({ name: "template_id" })
  template?: TemplateEntity;
}
