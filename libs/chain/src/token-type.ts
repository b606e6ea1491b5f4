/**
 * On-chain `TokenType` enum. The order is an interface fact (architecture §3): the API speaks the names,
 * the contracts the indexes.
 */
export enum TokenType {
  NATIVE = 0,
  ERC20 = 1,
  ERC721 = 2,
  ERC998 = 3,
  ERC1155 = 4,
}

export type TokenTypeName = keyof typeof TokenType;

export const TOKEN_TYPE_NAMES = Object.freeze(Object.keys(TokenType).filter((key) => Number.isNaN(Number(key))) as TokenTypeName[]);

export function tokenTypeIndex(name: string): TokenType {
  const index = (TokenType as unknown as Record<string, number | undefined>)[name];
  if (typeof index !== "number") throw new RangeError(`unknown token type: ${name}`);
  return index;
}

export function tokenTypeName(index: number | bigint): TokenTypeName {
  const name = TokenType[Number(index)] as TokenTypeName | undefined;
  if (name === undefined) throw new RangeError(`unknown token type index: ${index}`);
  return name;
}
