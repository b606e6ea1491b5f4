import { richTextBlocks } from "@raffle/db/rich-text";

/**
 * The spec's rich-text document (draft.js raw: `blocks` with `text` and `type`), rendered as plain paragraphs.
 * `unlessOnly`: render nothing when the document is just this text (a raffle's description starts as its title, which
 * the page already shows as its heading).
 */
export function RichText({ source, unlessOnly }: { source: string; unlessOnly?: string }) {
  const shown = richTextBlocks(source).filter((block) => block.text);
  if (shown.length === 0) return null;
  if (unlessOnly !== undefined && shown.length === 1 && shown[0].text!.trim() === unlessOnly.trim()) return null;
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
