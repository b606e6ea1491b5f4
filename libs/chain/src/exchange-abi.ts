const PARAMS = "(uint256 externalId, uint256 expiresAt, bytes32 nonce, bytes32 extra, address receiver, address referrer)";
/** `tokenType` is uint8 in the ABI (uint256 only in the EIP-712 types). */
const ASSET = "(uint8 tokenType, address token, uint256 tokenId, uint256 amount)";

/**
 * What a client of the API calls on the platform: the Exchange's purchase and claim, and the ticket's Transfer event
 * that names a bought ticket, as human-readable ABI. A client (the SDK) carries these lines instead of the generated
 * bindings and their bytecode; exchange-abi.spec.ts holds them equal to the compiled contracts.
 */
export const EXCHANGE_CLIENT_ABI = [
  `function purchaseRaffle(${PARAMS} params, ${ASSET} item, ${ASSET} price, bytes signature) payable`,
  `function claim(${PARAMS} params, ${ASSET}[] items, bytes signature)`,
] as const;

export const TICKET_TRANSFER_ABI = ["event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)"] as const;
