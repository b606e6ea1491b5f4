/**
 * An item prize's metadata (ERC721 `tokenURI`, ERC1155 `uri`), read as a hostile source: whatever the token returns
 * becomes at most a short plain-text name and an image URL the page may put in an <img>. Anything else (a script, a
 * `javascript:` or `http:` URL, a huge or missing field, a body that is not JSON) is dropped, and the page shows the
 * plain fallback, "Item #id of <address>".
 */
import { shortAddress } from "./format";

/** The longest name shown; longer names are cut with an ellipsis. */
export const MAX_NAME_LENGTH = 80;
/** The largest metadata body read (a data: URL or an https answer); a larger one is not metadata a page should parse. */
export const MAX_METADATA_BYTES = 256 * 1024;
/** The longest image URL kept: an inline data:image/ of about 150 kB, or an https URL of ordinary length. */
const MAX_DATA_IMAGE_LENGTH = 200_000;
const MAX_HTTPS_IMAGE_LENGTH = 2_048;
/** How long an https metadata host may take before the page gives up on it. */
const FETCH_TIMEOUT_MS = 8_000;

export interface ItemMetadata {
  /** Plain text, at most MAX_NAME_LENGTH characters; null when the metadata has no usable name. */
  name: string | null;
  /** A data:image/ or https: URL, safe as an <img> source; null when there is none. */
  image: string | null;
}

export const NO_METADATA: ItemMetadata = { name: null, image: null };

/**
 * "Item #7 of 0x5FbD…0aa3": what the page calls an item whose metadata says nothing usable. The address is shortened
 * so that the name fits a phone's line; the full address is the item's title (ItemPrize).
 */
export function fallbackItemName(token: string, tokenId: bigint | string): string {
  return `Item #${tokenId} of ${shortAddress(token)}`;
}

/**
 * The metadata URL of an ERC1155 id: `{id}` becomes the id as 64 lowercase hex digits, without 0x (EIP-1155). An
 * ERC721's `tokenURI` is already the token's own.
 */
export function substituteTokenId(uri: string, tokenId: bigint): string {
  return uri.replaceAll("{id}", tokenId.toString(16).padStart(64, "0"));
}

/** Whether the page may read metadata from this URL: a data: URL or https, nothing else (no http:, ipfs:, javascript:). */
export function isReadableMetadataUrl(url: string): boolean {
  return /^data:/i.test(url) || /^https:\/\/[^\s]+$/i.test(url);
}

/**
 * The text a `data:` URL carries (base64 or percent-encoded), when its media type is JSON or plain text, or none
 * given; null for anything else or a malformed URL.
 */
export function dataUrlText(url: string): string | null {
  const match = /^data:([^,]*),(.*)$/is.exec(url);
  if (!match) return null;
  const [, header, payload] = match;
  const parts = header.split(";").map((part) => part.trim().toLowerCase());
  const mediaType = parts[0];
  if (mediaType !== "" && mediaType !== "application/json" && mediaType !== "text/plain") return null;
  try {
    if (parts.includes("base64")) {
      const binary = atob(payload.replace(/\s+/g, ""));
      return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
    }
    return decodeURIComponent(payload);
  } catch {
    return null;
  }
}

/** A name as plain text: control and bidi-override characters dropped, spaces collapsed, cut at MAX_NAME_LENGTH. */
function plainName(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (text === "") return null;
  return text.length > MAX_NAME_LENGTH ? `${text.slice(0, MAX_NAME_LENGTH - 1)}…` : text;
}

/** An image URL the page may show in an <img>: data:image/… (not too long) or a well-formed https URL; else null. */
export function safeImageUrl(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const url = value.trim();
  if (/^data:image\/[a-z0-9.+-]+[;,]/i.test(url)) return url.length <= MAX_DATA_IMAGE_LENGTH ? url : null;
  if (!/^https:\/\//i.test(url) || url.length > MAX_HTTPS_IMAGE_LENGTH) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" && parsed.hostname !== "" ? parsed.href : null;
  } catch {
    return null;
  }
}

/** The name and image of a metadata body; NO_METADATA for anything that is not a JSON object. */
export function parseItemMetadata(text: string | null): ItemMetadata {
  if (text === null || text.length > MAX_METADATA_BYTES) return NO_METADATA;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return NO_METADATA;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return NO_METADATA;
  const fields = value as Record<string, unknown>;
  return { name: plainName(fields.name), image: safeImageUrl(fields.image ?? fields.image_url) };
}

/**
 * An https body as text, up to MAX_METADATA_BYTES: no cookies, no referrer, a timeout; null when the host refuses, is
 * slow, or sends more.
 */
async function fetchText(url: string): Promise<string | null> {
  try {
    const response = await fetch(url, {
      credentials: "omit",
      referrerPolicy: "no-referrer",
      cache: "force-cache",
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!response.ok || !response.body) return null;
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_METADATA_BYTES) {
        await reader.cancel();
        return null;
      }
      chunks.push(value);
    }
    const bytes = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The metadata at a token's URI (data: or https:), as safe as parseItemMetadata makes it; NO_METADATA when unreadable. */
export async function loadItemMetadata(uri: string | null): Promise<ItemMetadata> {
  if (!uri) return NO_METADATA;
  const url = uri.trim();
  if (url.length > MAX_METADATA_BYTES * 2 || !isReadableMetadataUrl(url)) return NO_METADATA;
  return parseItemMetadata(/^data:/i.test(url) ? dataUrlText(url) : await fetchText(url));
}
