import { descriptionBlocks } from "../lib/description";

/**
 * The spec's rich-text document (draft.js raw: `blocks` with `text` and `type`), rendered as plain paragraphs.
 * `unlessOnly`: render nothing when the document is just this text (a raffle's description starts as its title, which
 * the page already shows as its heading).
 */
export function RichText({ source, unlessOnly }: { source: unknown; unlessOnly?: string }) {
  const shown = descriptionBlocks(source).filter((block) => block.text.trim());
  if (shown.length === 0) return null;
  if (typeof unlessOnly === "string" && shown.length === 1 && shown[0].text.trim() === unlessOnly.trim()) return null;
  return (
    <div className="description">
      {shown.map((block) => {
        if (block.kind === "heading") return <h3 key={block.key}>{block.text}</h3>;
        if (block.kind === "listItem") return <p key={block.key}>• {block.text}</p>;
        return <p key={block.key}>{block.text}</p>;
      })}
    </div>
  );
}
