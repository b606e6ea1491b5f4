import { ApiProperty } from "@nestjs/swagger";
import {
  ContractType,
  PrizeClaimStatus,
  RoundStatus,
  TemplateStatus,
  TokenStatus,
  type PriceComponentEntity,
  type RoundEntity,
  type RoundItemEntity,
  type RoundWinnerEntity,
  type TemplateEntity,
  type TokenEntity,
} from "@raffle/db";

import { ContractDto, toContractDto } from "./contract.dto";

/** Spec 2.7. */
export class TokenDto {
  @ApiProperty({ example: 1, description: "Token id." }) id!: number;
  @ApiProperty({ example: "2026-11-23T16:00:00.000Z", format: "date-time", description: "Creation time (ISO 8601 UTC)." }) createdAt!: string;
  @ApiProperty({ example: "2026-11-23T16:00:00.000Z", format: "date-time", description: "Last update time (ISO 8601 UTC)." }) updatedAt!: string;
  @ApiProperty({ example: null, nullable: true, type: String, description: "Image URL." }) imageUrl!: string | null;
  @ApiProperty({ example: {}, type: "object", additionalProperties: true, description: "Token metadata." }) metadata!: Record<string, unknown>;
  @ApiProperty({ description: "On-chain token id (decimal string).", example: "0" }) tokenId!: string;
  @ApiProperty({ example: 0, description: "Royalty in basis points." }) royalty!: number;
  @ApiProperty({ example: null, nullable: true, type: String, description: "IPFS content id." }) cid!: string | null;
  @ApiProperty({ example: "MINTED", enum: TokenStatus, description: "Token status." }) tokenStatus!: TokenStatus;
  @ApiProperty({ example: 2, description: "The template this token was made from." }) templateId!: number;
}

/** Spec 2.6. */
export class TemplateDto {
  @ApiProperty({ example: 2, description: "Template id." }) id!: number;
  @ApiProperty({ example: "2026-11-23T16:00:00.000Z", format: "date-time", description: "Creation time (ISO 8601 UTC)." }) createdAt!: string;
  @ApiProperty({ example: "2026-11-23T16:00:00.000Z", format: "date-time", description: "Last update time (ISO 8601 UTC)." }) updatedAt!: string;
  @ApiProperty({ example: "Demo Gold", description: "Title shown to players." }) title!: string;
  @ApiProperty({
    example: '{"blocks":[{"key":"b0000","text":"","type":"unstyled","depth":0,"inlineStyleRanges":[],"entityRanges":[],"data":{}}],"entityMap":{}}',
    description: "Serialized rich-text document (spec 2.9).",
  })
  description!: string;
  @ApiProperty({ example: "", description: "Image URL; may be empty." }) imageUrl!: string;
  @ApiProperty({ example: null, nullable: true, type: Number, description: "Price of items made from this template, if any." }) priceId!:
    number | null;
  @ApiProperty({ example: "0", description: "Cap, integer string (0 = none)." }) cap!: string;
  @ApiProperty({ example: "0", description: "Amount, integer string." }) amount!: string;
  @ApiProperty({ example: null, nullable: true, type: String, description: "IPFS content id." }) cid!: string | null;
  @ApiProperty({ example: "ACTIVE", enum: TemplateStatus, description: "Template status." }) templateStatus!: TemplateStatus;
  @ApiProperty({ example: 2, description: "The token contract of the template." }) contractId!: number;
  @ApiProperty({ type: [TokenDto], description: "Tokens made from the template; the first one's `tokenId` is the price's `tokenId`." })
  tokens!: TokenDto[];
}

/** Spec 2.5. */
export class PriceComponentDto {
  @ApiProperty({ example: 1, description: "Price component id." }) id!: number;
  @ApiProperty({ example: "ERC20", enum: ContractType, description: "Token type name; its on-chain index is the TokenType enum." })
  tokenType!: ContractType;
  @ApiProperty({ example: 2, description: "The token contract id." }) contractId!: number;
  @ApiProperty({ example: 2, description: "The template id." }) templateId!: number;
  @ApiProperty({ example: "0", nullable: true, type: String, description: "Token id, decimal string." }) tokenId!: string | null;
  @ApiProperty({ description: "Amount in the token's smallest unit (integer string).", example: "10000000000000000000" }) amount!: string;
  @ApiProperty({ type: ContractDto, description: "The token contract." }) contract!: ContractDto;
  @ApiProperty({ type: TemplateDto, description: "The template, with its tokens." }) template!: TemplateDto;
}

/** Spec 2.4. */
export class PriceDto {
  @ApiProperty({ example: 1, description: "Price id." }) id!: number;
  @ApiProperty({ type: [PriceComponentDto], description: "What one ticket costs; the purchase pays the first component." })
  components!: PriceComponentDto[];
}

/** A quantity sold at its own total price. */
export class RoundBundleDto {
  @ApiProperty({ example: 5, description: "Tickets in the bundle (2 to 100)." }) quantity!: number;
  @ApiProperty({
    example: "45000000000000000000",
    description: "Total price of the bundle in the round's price token, smallest unit (integer string).",
  })
  price!: string;
}

/** What a round is played by, fixed when it started (the raffle's `setRoundRules` in force then). */
export class RoundRulesDto {
  @ApiProperty({
    example: [5000, 3000, 2000],
    type: [Number],
    description: "Basis points of the pot per winner position, first prize first; sum 10,000.",
  })
  prizeShares!: number[];
  @ApiProperty({ example: 3, description: "A round ending with fewer tickets (or fewer than its winners) is refunded; 0 = no minimum." })
  minTickets!: number;
  @ApiProperty({ example: 10, description: "Most tickets one buyer may buy in the round; 0 = no cap." }) maxTicketsPerWallet!: number;
  @ApiProperty({
    type: [RoundBundleDto],
    description:
      "Bundle prices, by increasing quantity; a purchase of q tickets pays the per-ticket price of the largest bundle not above q, else the round's price.",
  })
  bundles!: RoundBundleDto[];
}

/** One winner position of a drawn round. */
export class RoundWinnerDto {
  @ApiProperty({ example: 0, description: "0 = first prize." }) position!: number;
  @ApiProperty({ example: "12", description: "The winning ticket's token id (decimal string)." }) ticketId!: string;
  @ApiProperty({
    example: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
    description: "Who holds the winning ticket (while its prize is unclaimed), or held it.",
  })
  account!: string;
  @ApiProperty({ example: 5000, description: "Basis points of the pot." }) share!: number;
  @ApiProperty({
    example: "60000000000000000000",
    description: "What the position pays before commission: pot x share / 10,000 rounded down, the first position also taking the remainder.",
  })
  amount!: string;
  @ApiProperty({
    example: "UNCLAIMED",
    enum: PrizeClaimStatus,
    description: "Whether the prize is still open, claimed, or released to the merchant.",
  })
  claimStatus!: PrizeClaimStatus;
}

/** The kinds of item prize, by the token standard of the escrowed asset. */
export const ITEM_PRIZE_KINDS = ["erc721", "erc1155", "erc20"] as const;
/** Where an item prize is: held by the raffle, with its winner, or back with the merchant. */
export const ITEM_PRIZE_STATUSES = ["escrowed", "claimed", "returned"] as const;

/** The last attempt to send an escrowed item that failed since the item last moved (`ItemTransferFailed`). */
export class ItemTransferFailureDto {
  @ApiProperty({ example: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc", description: "Whom the item was sent to: its winner or the merchant." })
  to!: string;
  @ApiProperty({
    example: "0x",
    description: "The token's or receiver's revert data, hex (decode it with the token's ABI); the item stayed in escrow.",
  })
  reason!: string;
  @ApiProperty({
    example: "0x4b1f9c2e8d7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c",
    description: "The transaction of the failed attempt.",
  })
  txHash!: string;
}

/** An item prize of a round (issue #53): escrowed from the merchant when the round started, for one winner position. */
export class ItemPrizeDto {
  @ApiProperty({ example: 1, description: "The winner position it is for: 1 = first prize (as the contract counts item positions)." })
  position!: number;
  @ApiProperty({ example: "erc721", enum: ITEM_PRIZE_KINDS, description: "The token standard of the item." })
  kind!: (typeof ITEM_PRIZE_KINDS)[number];
  @ApiProperty({ example: "0x0165878A594ca255338adfa4d48449f69242Eb8F", description: "The item's token contract." }) token!: string;
  @ApiProperty({ example: "7", nullable: true, type: String, description: "The token id (decimal string); null for an ERC20." })
  tokenId!: string | null;
  @ApiProperty({ example: "1", description: 'How many, in the token\'s smallest unit (integer string); "1" for an ERC721.' }) amount!: string;
  @ApiProperty({
    example: "escrowed",
    enum: ITEM_PRIZE_STATUSES,
    description: "escrowed (held by the raffle), claimed (sent to the position's winner) or returned (sent back to the merchant).",
  })
  status!: (typeof ITEM_PRIZE_STATUSES)[number];
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    description: "The position's winning ticket (decimal string), once the round is drawn; null before, and for a position no ticket won.",
  })
  ticketId!: string | null;
  @ApiProperty({ example: null, nullable: true, type: String, description: "Who received the item, once claimed; null otherwise." })
  claimedBy!: string | null;
  @ApiProperty({
    example: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
    description: "The merchant the item was escrowed from, and goes back to.",
  })
  merchant!: string;
  @ApiProperty({
    example: "0x8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63",
    description: "The transaction of the item's last move: its escrow (the round's startRound), its claim or its return.",
  })
  txHash!: string;
  @ApiProperty({
    type: ItemTransferFailureDto,
    nullable: true,
    description: "The last failed attempt to send it since that move (a receiver that refuses it, a paused token); null when none.",
  })
  transferFailure!: ItemTransferFailureDto | null;
}

/** Spec 2.3. */
export class RoundDto {
  @ApiProperty({ example: 7, description: "Round id; the purchase passes it as `params.externalId`." }) id!: number;
  @ApiProperty({ example: "2026-11-23T16:00:00.000Z", format: "date-time", description: "Creation time (ISO 8601 UTC)." }) createdAt!: string;
  @ApiProperty({ example: "2026-11-23T16:04:12.000Z", format: "date-time", description: "Last update time (ISO 8601 UTC)." }) updatedAt!: string;
  @ApiProperty({ example: 7, nullable: true, type: Number, description: "Round number." }) number!: number | null;
  @ApiProperty({ example: "7", description: "On-chain round id (decimal string)." }) roundId!: string;
  @ApiProperty({ example: 3, description: "The raffle contract id." }) contractId!: number;
  @ApiProperty({ example: 4, description: "The ticket contract id." }) ticketContractId!: number;
  @ApiProperty({ example: 1, description: "The price id." }) priceId!: number;
  @ApiProperty({ example: 1000, description: "Ticket cap of the round; 0 means no cap." }) maxTickets!: number;
  @ApiProperty({ example: "2026-11-23T16:00:00.000Z", format: "date-time", description: "When the round started (ISO 8601 UTC)." })
  startTimestamp!: string;
  @ApiProperty({ example: null, format: "date-time", nullable: true, type: String, description: "Null while the round is active." })
  endTimestamp!: string | null;
  @ApiProperty({ type: ContractDto, description: "The raffle contract." }) contract!: ContractDto;
  @ApiProperty({ type: ContractDto, description: "The ticket contract (ERC721)." }) ticketContract!: ContractDto;
  @ApiProperty({ type: PriceDto, description: "The ticket price." }) price!: PriceDto;
  @ApiProperty({ example: 12, description: "Tickets sold in the round." }) ticketCount!: number;
  @ApiProperty({
    example: "ACTIVE",
    enum: RoundStatus,
    description:
      "The on-chain status: ACTIVE (selling), DRAWING (randomness asked), WINNERS_PENDING (word received, winners not drawn yet), DRAWN, CLOSED (no ticket), REFUNDABLE, CLAIMED (every prize claimed), RELEASED (unclaimed prizes released).",
  })
  status!: RoundStatus;
  @ApiProperty({ type: RoundRulesDto, description: "The rules the round plays by." }) rules!: RoundRulesDto;
  @ApiProperty({
    example: "120000000000000000000",
    description: "What the round's tickets paid, smallest unit (integer string): the prizes add up to it.",
  })
  pot!: string;
  @ApiProperty({ type: [RoundWinnerDto], description: "The winners, first position first; empty until drawn." }) winners!: RoundWinnerDto[];
  @ApiProperty({
    type: [ItemPrizeDto],
    description:
      "The items the round holds in escrow for its winner positions (an ERC721, an ERC1155 id and amount, or an ERC20 amount), first position first, and where each is now; empty for a round without item prizes.",
  })
  itemPrizes!: ItemPrizeDto[];
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    description: "The VRF request of the draw (decimal string); null when none was asked.",
  })
  vrfRequestId!: string | null;
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    description:
      'The VRF word the winners follow from (decimal string; see the README, "How winners are drawn"); "0" when one ticket won outright, null before.',
  })
  randomWord!: string | null;
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    description: "Why a REFUNDABLE round is: MINIMUM_NOT_REACHED, DRAW_REFUSED or RANDOMNESS_TIMEOUT; null otherwise.",
  })
  refundReason!: string | null;
}

function toRoundWinnerDto(winner: RoundWinnerEntity): RoundWinnerDto {
  return {
    position: winner.position,
    ticketId: winner.ticketId,
    account: winner.account,
    share: winner.share,
    amount: winner.amount,
    claimStatus: winner.claimStatus,
  };
}

export function toItemPrizeDto(item: RoundItemEntity): ItemPrizeDto {
  return {
    position: item.position,
    kind: item.tokenType.toLowerCase() as ItemPrizeDto["kind"],
    token: item.token,
    tokenId: item.tokenType === "ERC20" ? null : item.tokenId,
    amount: item.amount,
    status: item.status.toLowerCase() as ItemPrizeDto["status"],
    ticketId: item.ticketId,
    claimedBy: item.claimedBy,
    merchant: item.merchant,
    txHash: item.txHash,
    transferFailure: item.failedTxHash ? { to: item.failedTo!, reason: item.failedReason!, txHash: item.failedTxHash } : null,
  };
}

function toTokenDto(token: TokenEntity): TokenDto {
  return {
    id: token.id,
    createdAt: token.createdAt.toISOString(),
    updatedAt: token.updatedAt.toISOString(),
    imageUrl: token.imageUrl,
    metadata: token.metadata,
    tokenId: token.tokenId,
    royalty: token.royalty,
    cid: token.cid,
    tokenStatus: token.tokenStatus,
    templateId: token.templateId,
  };
}

function toTemplateDto(template: TemplateEntity): TemplateDto {
  return {
    id: template.id,
    createdAt: template.createdAt.toISOString(),
    updatedAt: template.updatedAt.toISOString(),
    title: template.title,
    description: template.description,
    imageUrl: template.imageUrl,
    priceId: template.priceId,
    cap: template.cap,
    amount: template.amount,
    cid: template.cid,
    templateStatus: template.templateStatus,
    contractId: template.contractId,
    tokens: (template.tokens ?? []).map(toTokenDto),
  };
}

function toPriceComponentDto(component: PriceComponentEntity): PriceComponentDto {
  return {
    id: component.id,
    tokenType: component.tokenType,
    contractId: component.contractId,
    templateId: component.templateId,
    tokenId: component.tokenId,
    amount: component.amount,
    contract: toContractDto(component.contract!),
    template: toTemplateDto(component.template!),
  };
}

export function toRoundDto(round: RoundEntity, winners: RoundWinnerEntity[] = [], items: RoundItemEntity[] = []): RoundDto {
  return {
    id: round.id,
    createdAt: round.createdAt.toISOString(),
    updatedAt: round.updatedAt.toISOString(),
    number: round.number,
    roundId: round.roundId,
    contractId: round.contractId,
    ticketContractId: round.ticketContractId,
    priceId: round.priceId,
    maxTickets: round.maxTickets,
    startTimestamp: round.startTimestamp.toISOString(),
    endTimestamp: round.endTimestamp ? round.endTimestamp.toISOString() : null,
    contract: toContractDto(round.contract!),
    ticketContract: toContractDto(round.ticketContract!),
    price: {
      id: round.price!.id,
      components: [...(round.price!.components ?? [])].sort((a, b) => a.id - b.id).map(toPriceComponentDto),
    },
    ticketCount: round.ticketCount,
    status: round.roundStatus,
    rules: {
      prizeShares: round.prizeShares,
      minTickets: round.minTickets,
      maxTicketsPerWallet: round.maxTicketsPerWallet,
      bundles: round.bundles.map((bundle) => ({ quantity: bundle.quantity, price: bundle.price })),
    },
    pot: round.pot,
    winners: [...winners].sort((a, b) => a.position - b.position).map(toRoundWinnerDto),
    itemPrizes: [...items].sort((a, b) => a.position - b.position).map(toItemPrizeDto),
    vrfRequestId: round.vrfRequestId,
    randomWord: round.randomWord,
    refundReason: round.refundReason,
  };
}
