import {
  MAX_METADATA_BYTES,
  MAX_NAME_LENGTH,
  NO_METADATA,
  dataUrlText,
  fallbackItemName,
  isReadableMetadataUrl,
  loadItemMetadata,
  parseItemMetadata,
  safeImageUrl,
  substituteTokenId,
} from "../src/lib/item-metadata";

const json = (value: unknown) => `data:application/json;base64,${Buffer.from(JSON.stringify(value)).toString("base64")}`;
const PIXEL = "data:image/png;base64,iVBORw0KGgo=";

/**
 * An item's metadata is whatever its token contract returns: the page keeps a plain-text name and an image URL it may
 * put in an <img>, and nothing else. The browser journeys (item-prizes-journeys.spec.ts) show the same tokens on the pages.
 */
describe("item prize metadata, read as a hostile source", () => {
  it("reads data: JSON in base64 and percent-encoded, and an ERC1155 URI with {id} as 64 hex digits", async () => {
    expect(await loadItemMetadata(json({ name: "Legendary Sword", image: PIXEL }))).toEqual({ name: "Legendary Sword", image: PIXEL });
    expect(await loadItemMetadata(`data:application/json,${encodeURIComponent('{"name":"Potion ü"}')}`)).toEqual({ name: "Potion ü", image: null });
    expect(await loadItemMetadata(`data:,{"name":"Bare"}`)).toEqual({ name: "Bare", image: null });
    expect(substituteTokenId("https://items.test/{id}.json", 0x2an)).toBe(`https://items.test/${"0".repeat(62)}2a.json`);
    expect(substituteTokenId("https://items.test/42.json", 42n)).toBe("https://items.test/42.json");
  });

  it("keeps a name as plain text: markup stays text, control and bidi-override characters go, a huge name is cut", () => {
    expect(parseItemMetadata(JSON.stringify({ name: "<script>alert(1)</script>" })).name).toBe("<script>alert(1)</script>");
    expect(parseItemMetadata(JSON.stringify({ name: "Sword\u202e\u0000\n  of\tdoom" })).name).toBe("Sword of doom");
    const long = parseItemMetadata(JSON.stringify({ name: "A".repeat(100_000) })).name!;
    expect(long).toHaveLength(MAX_NAME_LENGTH);
    expect(long.endsWith("…")).toBe(true);
    for (const name of [null, 7, "", "   ", { text: "x" }, ["x"]]) expect(parseItemMetadata(JSON.stringify({ name })).name).toBeNull();
  });

  it("keeps an image only as data:image/ or a well-formed https URL", () => {
    expect(safeImageUrl(PIXEL)).toBe(PIXEL);
    expect(safeImageUrl("https://cdn.example/sword.png")).toBe("https://cdn.example/sword.png");
    for (const bad of [
      "javascript:alert(1)",
      " JavaScript:alert(1)",
      "http://cdn.example/sword.png",
      "data:text/html,<script>alert(1)</script>",
      "data:image/svg+xml", // no payload
      "ipfs://bafy/sword.png",
      "//cdn.example/sword.png",
      "https://",
      `https://cdn.example/${"a".repeat(5_000)}`,
      `data:image/png;base64,${"A".repeat(300_000)}`,
      42,
      null,
    ]) {
      expect({ bad, image: safeImageUrl(bad) }).toEqual({ bad, image: null });
    }
  });

  it("gives no metadata for a body that is not a JSON object, a non-JSON data: type, or a URL it may not read", async () => {
    for (const body of ["not json", "<html><script>alert(1)</script></html>", "[1,2]", "null", '"name"', "{", ""]) {
      expect(parseItemMetadata(body)).toEqual(NO_METADATA);
    }
    expect(parseItemMetadata(JSON.stringify({ name: "x".repeat(10), pad: "y".repeat(MAX_METADATA_BYTES) }))).toEqual(NO_METADATA);
    expect(dataUrlText("data:text/html,<script>alert(1)</script>")).toBeNull();
    expect(dataUrlText("data:application/json;base64,@@@")).toBeNull();
    expect(dataUrlText("data:application/json,%E0%A4%A")).toBeNull();
    expect(dataUrlText(`data:application/json;base64,${Buffer.from([0xff, 0xfe]).toString("base64")}`)).toBeNull();
    for (const uri of ["javascript:alert(1)", "http://items.test/1.json", "ipfs://bafy/1.json", "/1.json", "", "https://a b"]) {
      expect(isReadableMetadataUrl(uri)).toBe(false);
      expect(await loadItemMetadata(uri)).toEqual(NO_METADATA);
    }
    expect(await loadItemMetadata(null)).toEqual(NO_METADATA);
  });

  it("names an item without usable metadata plainly, by id and token address", () => {
    expect(fallbackItemName("0x5FbDB2315678afecb367f032d93F642f64180aa3", 7n)).toBe("Item #7 of 0x5FbD…0aa3");
  });
});
