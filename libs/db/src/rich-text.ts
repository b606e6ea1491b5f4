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
