/**
 * What a Sign-In with Ethereum message is for. The player pages and the merchant console share an origin, so the
 * message itself says which one it opens, and each sign-in route consumes only the nonces it issued.
 */
export type SignInPurpose = "player" | "merchant";

/**
 * The `Resources` entry a console sign-in message carries (EIP-4361): the merchant route requires it, the player route
 * refuses it, so a message a merchant's wallet signed to buy tickets never opens the console.
 */
export const MERCHANT_CONSOLE_SIWE_RESOURCE = "urn:raffle:merchant-console";
