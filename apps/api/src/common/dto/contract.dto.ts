import { ApiProperty, ApiPropertyOptional } from "@nestjs/swagger";
import { ContractFeature, ContractModule, ContractSecurity, ContractStatus, ContractType, type ContractEntity } from "@raffle/db";

export class MerchantRefDto {
  @ApiProperty({ description: "Merchant id.", example: 1 })
  id!: number;

  @ApiProperty({ description: "Merchant wallet (EIP-55 address).", example: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" })
  wallet!: string;
}

/** Spec 2.1. */
export class ContractDto {
  @ApiProperty({ description: "Contract id; pass it as `contractId`.", example: 3 })
  id!: number;

  @ApiProperty({ example: "2026-11-23T16:00:00.000Z", description: "Creation time (ISO 8601 UTC).", format: "date-time" })
  createdAt!: string;

  @ApiProperty({ example: "2026-11-23T16:04:12.000Z", description: "Last update time (ISO 8601 UTC).", format: "date-time" })
  updatedAt!: string;

  @ApiProperty({ description: "Contract address (EIP-55).", example: "0xd8058efe0198ae9dD7D563e1b4938Dcbc86A1F81" })
  address!: string;

  @ApiProperty({ description: "Chain id.", example: 31337 })
  chainId!: number;

  @ApiProperty({ example: "Demo ERC20 Ticket raffle", description: "Title shown to players." })
  title!: string;

  @ApiProperty({
    example: '{"blocks":[{"key":"b0000","text":"","type":"unstyled","depth":0,"inlineStyleRanges":[],"entityRanges":[],"data":{}}],"entityMap":{}}',
    description: "Serialized rich-text document (spec 2.9): JSON with `blocks` and `entityMap`.",
  })
  description!: string;

  @ApiProperty({ example: 1, description: "Owning merchant id." })
  merchantId!: number;

  @ApiProperty({ example: "", description: "Image URL; may be empty." })
  imageUrl!: string;

  @ApiProperty({ example: "Raffle", description: "Token or contract name." })
  name!: string;

  @ApiProperty({ example: "", description: "Token symbol; may be empty." })
  symbol!: string;

  @ApiProperty({ example: 0, description: "Decimals: 0 for non-fungible contracts, 18 for the usual fungible ones." })
  decimals!: number;

  @ApiProperty({ example: 14, description: "Block where the contract was deployed or registered." })
  fromBlock!: number;

  @ApiProperty({ example: 0, description: "Royalty in basis points." })
  royalty!: number;

  @ApiProperty({ example: "", description: "Metadata base URI; may be empty." })
  baseTokenURI!: string;

  @ApiProperty({
    description:
      "For a raffle: `timeLagBeforeRelease` (seconds, string), `commission` (basis points, string), `schedule` (cron) and `roundId` (current on-chain round id, 0 before the first); once the merchant set item prizes, `itemPrizes`: the items the next rounds escrow (`merchant`, and `items`, each `position` from 1, `tokenType`, `token`, `tokenId`, `amount`). Empty for token contracts.",
    type: "object",
    additionalProperties: true,
    example: { timeLagBeforeRelease: "86400", commission: "1000", schedule: "0 0 * * *", roundId: 1 },
  })
  parameters!: Record<string, unknown>;

  @ApiProperty({ example: false, description: "Whether the contract is paused on-chain." })
  isPaused!: boolean;

  @ApiProperty({
    example: false,
    description: "Set by the merchant: wallet users may see and buy this raffle (public sale). False for token contracts.",
  })
  publicSale!: boolean;

  @ApiProperty({ example: "ACTIVE", enum: ContractStatus, description: "Listing status." })
  contractStatus!: ContractStatus;

  @ApiProperty({ example: null, enum: ContractType, nullable: true, description: "Token standard; null for a raffle contract." })
  contractType!: ContractType | null;

  @ApiProperty({ example: ["RANDOM", "PAUSABLE"], enum: ContractFeature, isArray: true, description: "Capabilities of the contract." })
  contractFeatures!: ContractFeature[];

  @ApiProperty({ example: "RAFFLE", enum: ContractModule, description: "Product module." })
  contractModule!: ContractModule;

  @ApiProperty({ example: "ACCESS_CONTROL", enum: ContractSecurity, description: "Access model." })
  contractSecurity!: ContractSecurity;
}

export class ContractWithMerchantDto extends ContractDto {
  @ApiPropertyOptional({ type: MerchantRefDto, description: "The owning merchant (list items only)." })
  merchant!: MerchantRefDto;
}

export function toContractDto(contract: ContractEntity): ContractDto {
  return {
    id: contract.id,
    createdAt: contract.createdAt.toISOString(),
    updatedAt: contract.updatedAt.toISOString(),
    address: contract.address,
    chainId: contract.chainId,
    title: contract.title,
    description: contract.description,
    merchantId: contract.merchantId,
    imageUrl: contract.imageUrl,
    name: contract.name,
    symbol: contract.symbol,
    decimals: contract.decimals,
    fromBlock: contract.fromBlock,
    royalty: contract.royalty,
    baseTokenURI: contract.baseTokenURI,
    parameters: contract.parameters,
    isPaused: contract.isPaused,
    publicSale: contract.publicSale,
    contractStatus: contract.contractStatus,
    contractType: contract.contractType,
    contractFeatures: contract.contractFeatures,
    contractModule: contract.contractModule,
    contractSecurity: contract.contractSecurity,
  };
}

export function toContractWithMerchantDto(contract: ContractEntity): ContractWithMerchantDto {
  return { ...toContractDto(contract), merchant: { id: contract.merchant!.id, wallet: contract.merchant!.wallet } };
}
