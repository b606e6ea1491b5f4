import { Column, Entity, Index } from "typeorm";

import { TimestampedEntity } from "./base.entity";

/** A merchant is known by its wallet: the address that deploys and administers its raffles. */
@Entity({ name: "merchant" })
export class MerchantEntity extends TimestampedEntity {
  @Index({ unique: true })
  @Column({ type: "varchar", length: 42 })
  wallet!: string;

  @Column({ type: "varchar", length: 255, default: "" })
  title!: string;
}
