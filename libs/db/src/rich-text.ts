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
