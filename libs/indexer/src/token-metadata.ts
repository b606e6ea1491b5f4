import { Contract, type JsonRpcProvider } from "ethers";

const METADATA_ABI = ["function name() view returns (string)", "function symbol() view returns (string)", "function decimals() view returns (uint8)"];

export interface TokenMetadata {
  name: string;
  symbol: string;
  decimals: number;
}

/** Reads name, symbol and decimals of a token once; a token that lacks one keeps an empty default. */
export class TokenMetadataReader {
  private readonly cache = new Map<string, Promise<TokenMetadata>>();

  constructor(private readonly provider: JsonRpcProvider) {}

  read(address: string, fungible: boolean): Promise<TokenMetadata> {
    const key = `${address}:${fungible}`;
    let pending = this.cache.get(key);
    if (!pending) {
      pending = this.fetch(address, fungible);
      this.cache.set(key, pending);
    }
    return pending;
  }

  private async fetch(address: string, fungible: boolean): Promise<TokenMetadata> {
    const token = new Contract(address, METADATA_ABI, this.provider);
    const [name, symbol, decimals] = await Promise.all([
      token.name().catch(() => ""),
      token.symbol().catch(() => ""),
      fungible ? token.decimals().catch(() => 18n) : Promise.resolve(0n),
    ]);
    return { name: String(name), symbol: String(symbol), decimals: Number(decimals) };
  }
}
