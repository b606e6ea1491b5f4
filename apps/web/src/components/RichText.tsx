/** The spec's rich-text document (draft.js raw: `blocks` with `text` and `type`), rendered as plain paragraphs. */
export function RichText({ source }: { source: string }) {
  let blocks: Array<{ key?: string; text?: string; type?: string }> = [];
  try {
    blocks = (JSON.parse(source) as { blocks?: typeof blocks }).blocks ?? [];
  } catch {
    blocks = source ? [{ text: source }] : [];
  }
  const shown = blocks.filter((block) => block.text);
  if (shown.length === 0) return null;
  return (
    <div className="description">
      {shown.map((block, index) => {
        if (block.type === "header-two") return <h3 key={block.key ?? index}>{block.text}</h3>;
        if (block.type === "unordered-list-item") return <p key={block.key ?? index}>• {block.text}</p>;
        return <p key={block.key ?? index}>{block.text}</p>;
      })}
    </div>
  );
}
