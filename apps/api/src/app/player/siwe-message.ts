import { verifyMessage } from "ethers";
import { parseSiweMessage } from "viem/siwe";
import { MERCHANT_CONSOLE_SIWE_RESOURCE, type SignInPurpose } from "@raffle/db";

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

/** The word a console sign-in's statement must hold, so that the wallet's prompt says what it opens. */
const CONSOLE_WORD = /\bconsole\b/i;

/**
 * A console sign-in's message carries the console's `Resources` entry and a statement naming the console; a player's
 * carries no such entry. Both pages share an origin, so this, not the domain, tells the two apart.
 */
function checkPurpose(fields: ReturnType<typeof parseSiweMessage>, purpose: SignInPurpose): void {
  const forConsole = fields.resources?.includes(MERCHANT_CONSOLE_SIWE_RESOURCE) ?? false;
  if (purpose === "player" && forConsole)
    throw problems.siweMessageInvalid(`it signs in to the merchant console (${MERCHANT_CONSOLE_SIWE_RESOURCE}), not as a player`);
  if (purpose === "merchant" && !(forConsole && CONSOLE_WORD.test(fields.statement ?? "")))
    throw problems.siweMessageInvalid(
      `a console sign-in lists ${MERCHANT_CONSOLE_SIWE_RESOURCE} under Resources and names the console in its statement`,
    );
}

/**
 * Checks an EIP-4361 message and its signature, without the nonce (the caller consumes it, once): the message is
 * well formed, version 1, for one of the player app's origins (domain = its host, URI under it), for this route's
 * purpose (checkPurpose), current (issued, not expired, not before its start), and signed by its address (EOA
 * `personal_sign`). The chain id is returned for the caller to check against the served chains.
 */
export function checkSiweMessage(
  message: string,
  signature: string,
  webOrigins: string[],
  purpose: SignInPurpose,
  now = new Date(),
): CheckedSiweMessage {
  const fields = parseSiweMessage(message);
  for (const name of ["domain", "address", "uri", "version", "chainId", "nonce", "issuedAt", "expirationTime"] as const) {
    if (fields[name] === undefined) throw problems.siweMessageInvalid(`${name} is required`);
  }
  if (fields.version !== "1") throw problems.siweMessageInvalid("version must be 1");
  checkPurpose(fields, purpose);
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
