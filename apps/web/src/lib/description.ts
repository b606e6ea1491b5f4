import { richTextBlocks } from "@raffle/db/rich-text";

/** One paragraph of a raffle's description as the pages show it. */
export interface DescriptionBlock {
  key: string;
  text: string;
  kind: "paragraph" | "heading" | "listItem";
}

const KINDS: Record<string, DescriptionBlock["kind"]> = { "header-two": "heading", "unordered-list-item": "listItem" };

/** A block's text as a string: numbers and booleans written out, anything else (an object, a list, null) nothing. */
function blockText(text: unknown): string {
  if (typeof text === "string") return text;
  if (typeof text === "number" || typeof text === "boolean") return String(text);
  return "";
}

/**
 * The blocks of a stored `description` (spec 2.9), read defensively: whatever a merchant stored through the API, this
 * never throws. A block that is no object, or whose text is no string, number or boolean, is left out; a type the pages
 * do not know is shown as a paragraph (its text is still the merchant's text).
 */
export function descriptionBlocks(source: unknown): DescriptionBlock[] {
  if (typeof source !== "string") return [];
  return richTextBlocks(source).flatMap((block: unknown, index) => {
    if (typeof block !== "object" || block === null) return [];
    const { key, text, type } = block as Record<string, unknown>;
    return [
      {
        key: typeof key === "string" && key ? key : `block-${index}`,
        text: blockText(text),
        kind: (typeof type === "string" && Object.hasOwn(KINDS, type) ? KINDS[type] : undefined) ?? "paragraph",
      },
    ];
  });
}

/** The description's text, one paragraph per line: what the console's editor shows to change it. */
export function descriptionPlain(source: unknown): string {
  return descriptionBlocks(source)
    .map((block) => block.text)
    .join("\n");
}
