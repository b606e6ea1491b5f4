/**
 * The API's resources as a client sees them (spec 2). Amounts, token ids and on-chain round ids are decimal
 * strings; timestamps are ISO 8601 UTC strings.
 */

export interface MerchantRef {
  id: number;
  wallet: string;
}

export interface RaffleParameters {
  timeLagBeforeRelease: string;
  commission: string;
  schedule: string;
  roundId: number;
}

export interface Contract {
  id: number;
  createdAt: string;
  updatedAt: string;
  address: string;
  chainId: number;
  title: string;
  description: string;
  merchantId: number;
  imageUrl: string;
  name: string;
  symbol: string;
  decimals: number;
  fromBlock: number;
  royalty: number;
  baseTokenURI: string;
  parameters: Partial<RaffleParameters> & Record<string, unknown>;
  isPaused: boolean;
  contractStatus: string;
  contractType: string | null;
  contractFeatures: string[];
  contractModule: string;
  contractSecurity: string;
}

export interface ContractWithMerchant extends Contract {
  merchant: MerchantRef;
}

export interface Token {
  id: number;
  createdAt: string;
  updatedAt: string;
  imageUrl: string | null;
  metadata: Record<string, unknown>;
  tokenId: string;
  royalty: number;
  cid: string | null;
  tokenStatus: string;
  templateId: number;
}

export interface Template {
  id: number;
  createdAt: string;
  updatedAt: string;
  title: string;
  description: string;
  imageUrl: string;
  priceId: number | null;
  cap: string;
  amount: string;
  cid: string | null;
  templateStatus: string;
  contractId: number;
  tokens: Token[];
}

export interface PriceComponent {
  id: number;
  tokenType: string;
  contractId: number;
  templateId: number;
  tokenId: string | null;
  amount: string;
  contract: Contract;
  template: Template;
}

export interface Price {
  id: number;
  components: PriceComponent[];
}

export interface Round {
  id: number;
  createdAt: string;
  updatedAt: string;
  number: number | null;
  roundId: string;
  contractId: number;
  ticketContractId: number;
  priceId: number;
  maxTickets: number;
  startTimestamp: string;
  endTimestamp: string | null;
  contract: Contract;
  ticketContract: Contract;
  price: Price;
  ticketCount: number;
}

export interface AssetJson {
  tokenType: number;
  token: string;
  tokenId: string;
  amount: string;
}

export interface TicketSignature {
  nonce: string;
  signature: string;
  expiresAt: number;
  params: {
    externalId: string;
    expiresAt: string;
    nonce: string;
    extra: string;
    receiver: string;
    referrer: string;
  };
  item: AssetJson;
  price: AssetJson;
  value: string;
}

export interface ClaimItem {
  tokenType: string;
  token: string;
  tokenId: string;
  amount: string;
}

export interface Claim {
  id: number;
  createdAt: string;
  updatedAt: string;
  account: string;
  merchantId: number;
  claimType: string;
  claimStatus: string;
  items: ClaimItem[];
  endTimestamp: string | null;
  contractId: number | null;
  roundId: number | null;
  tokenId: string | null;
  parameters: Record<string, unknown>;
}

export interface List<T> {
  rows: T[];
  count: number;
}

/** RFC 9457 problem details with the API's stable code. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  statusCode: number;
  code: string;
  detail: string;
  instance?: string;
  errors?: Array<{ field: string; message: string }>;
}
