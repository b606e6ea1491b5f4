import { useState } from "react";

import { fallbackItemName } from "../lib/item-metadata";
import { useItemLabel, type PrizeItem } from "../lib/items";

/**
 * An item prize as a person sees it: its picture (only a data:image/ or https: URL, only in an <img>) and its name,
 * from the token's metadata; the plain "Item #id of <address>" while it loads or when the metadata is unusable.
 */
export function ItemPrize({ chainId, item }: { chainId: number; item: PrizeItem }) {
  const label = useItemLabel(chainId, item);
  const [imageFailed, setImageFailed] = useState(false);
  const text = label.data?.text ?? fallbackItemName(item.token, item.tokenId);
  const image = label.data?.image && !imageFailed ? label.data.image : null;
  return (
    <span className="item-prize">
      {image && (
        <img
          src={image}
          alt={label.data!.name}
          width={40}
          height={40}
          loading="lazy"
          referrerPolicy="no-referrer"
          onError={() => setImageFailed(true)}
        />
      )}
      <bdi className="item-name" title={item.token}>
        {text}
      </bdi>
    </span>
  );
}
