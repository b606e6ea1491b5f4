import { verifyMessage } from "ethers";
import { parseSiweMessage } from "viem/siwe";

import { problems } from "../../common/problem";
import type { ProblemCode } from "../../common/problem-catalogue";

/** What a checked EIP-4361 message grants: one address on one chain, until `expiresAt`, against one nonce. */
export interface CheckedSiweMessage {
  address: string;
  chainId: number;
  nonce: string;
  expiresAt: Date;
}

/** What a sign-in with a SIWE message may be refused with, for the player's and the merchant's routes alike. */
export const SIWE_SIGN_IN_PROBLEMS: ProblemCode[] = [
  "siweMessageInvalid",
  "siweDomainMismatch",
  "siweExpired",
  "siweNonceInvalid",
  "siweSignatureInvalid",
  "chainNotServed",
];

/** Clock difference tolerated between the player's machine and the API when reading `issuedAt` and `notBefore`. */
const CLOCK_SKEW_MS = 60_000;

/**
 * Checks an EIP-4361 message and its signature, without the nonce (the caller consumes it, once): the message is
 * well formed, version 1, for one of the player app's origins (domain = its host, URI under it), current (issued,
 * not expired, not before its start), and signed by its address (EOA `personal_sign`). The chain id is returned for
 * the caller to check against the served chains.
 */
export function checkSiweMessage(message: string, signature: string, webOrigins: string[], now = new Date()): CheckedSiweMessage {
  const fields = parseSiweMessage(message);
  for (const name of ["domain", "address", "uri", "version", "chainId", "nonce", "issuedAt", "expirationTime"] as const) {
    if (fields[name] === undefined) throw problems.siweMessageInvalid(`${name} is required`);
  }
  if (fields.version !== "1") throw problems.siweMessageInvalid("version must be 1");
  const origin = webOrigins.find((candidate) => new URL(candidate).host === fields.domain);
  if (!origin || URL.parse(fields.uri!)?.origin !== origin) throw problems.siweDomainMismatch(String(fields.domain));
  if (fields.expirationTime!.getTime() <= now.getTime()) throw problems.siweExpired(`it expired at ${fields.expirationTime!.toISOString()}`);
  if (fields.issuedAt!.getTime() > now.getTime() + CLOCK_SKEW_MS) throw problems.siweExpired("it is issued in the future");
  if (fields.notBefore && fields.notBefore.getTime() > now.getTime() + CLOCK_SKEW_MS) throw problems.siweExpired("it is not valid yet");
  let signer: string;
  try {
    signer = verifyMessage(message, signature);
  } catch {
    throw problems.siweSignatureInvalid();
  }
  if (signer.toLowerCase() !== fields.address!.toLowerCase()) throw problems.siweSignatureInvalid();
  return { address: signer, chainId: fields.chainId!, nonce: fields.nonce!, expiresAt: fields.expirationTime! };
}
