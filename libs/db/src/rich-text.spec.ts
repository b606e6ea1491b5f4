import { richText, richTextBlocks, richTextPlain } from "./rich-text";

describe("the description's rich-text document (spec 2.9)", () => {
  it("writes one unstyled block per line, with the spec's fields, and reads the same text back", () => {
    const document = JSON.parse(richText("First line.\nSecond line."));
    expect(document).toEqual({
      blocks: [
        { key: "b0000", text: "First line.", type: "unstyled", depth: 0, inlineStyleRanges: [], entityRanges: [], data: {} },
        { key: "b0001", text: "Second line.", type: "unstyled", depth: 0, inlineStyleRanges: [], entityRanges: [], data: {} },
      ],
      entityMap: {},
    });
    expect(richTextPlain(richText("First line.\nSecond line."))).toBe("First line.\nSecond line.");
  });

  it("reads what merchants stored through the API as it is: plain text is one paragraph, nothing is none", () => {
    expect(richTextBlocks("Just words")).toEqual([{ text: "Just words" }]);
    expect(richTextBlocks('{"not":"a document"}')).toEqual([{ text: '{"not":"a document"}' }]);
    expect(richTextBlocks("")).toEqual([]);
    expect(richTextPlain("Just words")).toBe("Just words");
  });
});
