/**
 * The serialized rich-text document of `description` fields (spec 2.9): one unstyled block per paragraph.
 * Keys are derived from the position so the same text always gives the same document.
 */
export function richText(text = ""): string {
  const paragraphs = text.split("\n");
  return JSON.stringify({
    blocks: paragraphs.map((paragraph, index) => ({
      key: `b${index.toString(36).padStart(4, "0")}`,
      text: paragraph,
      type: "unstyled",
      depth: 0,
      inlineStyleRanges: [],
      entityRanges: [],
      data: {},
    })),
    entityMap: {},
  });
}

/** A block of the document as readers use it: its text and, where given, its key and type. */
export interface RichTextBlock {
  key?: string;
  text?: string;
  type?: string;
}

/**
 * The blocks of a `description`, tolerant of what merchants stored through the API: a document gives its blocks, any
 * other string is one plain paragraph, an empty string none.
 */
export function richTextBlocks(source: string): RichTextBlock[] {
  try {
    const blocks = (JSON.parse(source) as { blocks?: unknown }).blocks;
    if (Array.isArray(blocks)) return blocks as RichTextBlock[];
  } catch {
    // Not a document: plain text, below.
  }
  return source ? [{ text: source }] : [];
}

/** The document's text, one paragraph per line: what an editor shows to change it. */
export function richTextPlain(source: string): string {
  return richTextBlocks(source)
    .map((block) => block.text ?? "")
    .join("\n");
}

/** The block types of a draft.js raw document (its default block render map); the console writes `unstyled`. */
export const RICH_TEXT_BLOCK_TYPES = [
  "unstyled",
  "paragraph",
  "header-one",
  "header-two",
  "header-three",
  "header-four",
  "header-five",
  "header-six",
  "unordered-list-item",
  "ordered-list-item",
  "blockquote",
  "code-block",
  "atomic",
] as const;

/** Inline styles of spec 2.9 (BOLD, ITALIC, UNDERLINE, STRIKETHROUGH) and draft.js's CODE. */
export const RICH_TEXT_STYLES = ["BOLD", "ITALIC", "UNDERLINE", "STRIKETHROUGH", "CODE"] as const;

/** Paragraphs a description may hold: far more than a raffle page shows, few enough to render at once. */
export const MAX_RICH_TEXT_BLOCKS = 100;
const MAX_DEPTH = 4;
const MAX_KEY_LENGTH = 64;

/** Where a stored document is wrong: the path under the document (`blocks[2].text`, "" for the whole) and what is wrong. */
export interface RichTextFault {
  path: string;
  reason: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** The first fault of each range (offset and length non-negative integers, plus `style` for inline styles). */
function rangeFault(ranges: unknown, path: string, style: boolean): RichTextFault | null {
  if (!Array.isArray(ranges)) return { path, reason: "must be an array" };
  for (const [index, range] of ranges.entries()) {
    const at = `${path}[${index}]`;
    if (!isPlainObject(range)) return { path: at, reason: "must be an object" };
    if (!isCount(range.offset)) return { path: `${at}.offset`, reason: "must be a non-negative integer" };
    if (!isCount(range.length)) return { path: `${at}.length`, reason: "must be a non-negative integer" };
    if (style && !(RICH_TEXT_STYLES as readonly unknown[]).includes(range.style))
      return { path: `${at}.style`, reason: `must be one of ${RICH_TEXT_STYLES.join(", ")}` };
    if (!style && !isCount(range.key)) return { path: `${at}.key`, reason: "must be a non-negative integer" };
  }
  return null;
}

const BLOCK_FIELDS = new Set(["key", "text", "type", "depth", "inlineStyleRanges", "entityRanges", "data"]);

function blockFault(block: unknown, path: string, isText: (text: string) => boolean): RichTextFault | null {
  if (!isPlainObject(block)) return { path, reason: "must be an object" };
  if (Object.keys(block).some((name) => !BLOCK_FIELDS.has(name))) return { path, reason: `may only have the fields ${[...BLOCK_FIELDS].join(", ")}` };
  if (typeof block.text !== "string") return { path: `${path}.text`, reason: "must be a string" };
  if (!isText(block.text)) return { path: `${path}.text`, reason: "must not contain control characters" };
  if (block.key !== undefined && (typeof block.key !== "string" || block.key.length > MAX_KEY_LENGTH))
    return { path: `${path}.key`, reason: `must be a string of at most ${MAX_KEY_LENGTH} characters` };
  if (block.type !== undefined && !(RICH_TEXT_BLOCK_TYPES as readonly unknown[]).includes(block.type))
    return { path: `${path}.type`, reason: `must be one of ${RICH_TEXT_BLOCK_TYPES.join(", ")}` };
  if (block.depth !== undefined && !(isCount(block.depth) && (block.depth as number) <= MAX_DEPTH))
    return { path: `${path}.depth`, reason: `must be an integer from 0 to ${MAX_DEPTH}` };
  if (block.data !== undefined && !isPlainObject(block.data)) return { path: `${path}.data`, reason: "must be an object" };
  if (block.inlineStyleRanges !== undefined) {
    const fault = rangeFault(block.inlineStyleRanges, `${path}.inlineStyleRanges`, true);
    if (fault) return fault;
  }
  return block.entityRanges === undefined ? null : rangeFault(block.entityRanges, `${path}.entityRanges`, false);
}

/**
 * Why a `description` cannot be stored, or null when it can: plain text (anything that is not a JSON object), or a
 * spec 2.9 document, `{ blocks, entityMap }`, whose blocks each have string `text` (accepted by `isText`), a known
 * `type`, and well-formed ranges, at most MAX_RICH_TEXT_BLOCKS of them. Readers (the pages, the console's editor)
 * can then rely on what they read.
 */
export function richTextFault(source: string, isText: (text: string) => boolean): RichTextFault | null {
  let document: unknown;
  try {
    document = JSON.parse(source);
  } catch {
    return null;
  }
  if (!isPlainObject(document)) return null;
  if (Object.keys(document).some((name) => name !== "blocks" && name !== "entityMap"))
    return { path: "", reason: "is a JSON object, so it must be a rich-text document with the fields blocks and entityMap only" };
  if (!Array.isArray(document.blocks)) return { path: "blocks", reason: "must be an array of blocks" };
  if (document.blocks.length > MAX_RICH_TEXT_BLOCKS) return { path: "blocks", reason: `must hold at most ${MAX_RICH_TEXT_BLOCKS} blocks` };
  if (document.entityMap !== undefined && !isPlainObject(document.entityMap)) return { path: "entityMap", reason: "must be an object" };
  for (const [index, block] of document.blocks.entries()) {
    const fault = blockFault(block, `blocks[${index}]`, isText);
    if (fault) return fault;
  }
  return null;
}
