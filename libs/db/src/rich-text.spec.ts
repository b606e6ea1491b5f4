import { richText, richTextBlocks, richTextFault, richTextPlain } from "./rich-text";

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

describe("what a description may be stored as (richTextFault)", () => {
  const anyText = () => true;

  it("accepts plain text and the documents the console writes", () => {
    for (const source of ["", "Just words", "{not JSON}", "[1, 2]", "42", richText("First line.\nSecond line.")]) {
      expect(richTextFault(source, anyText)).toBeNull();
    }
  });

  it("names the first faulty part of a JSON object, whose text readers would otherwise trust", () => {
    const document = (block: object) => JSON.stringify({ blocks: [{ text: "ok" }, block], entityMap: {} });
    expect(richTextFault(document({ text: { length: 1 } }), anyText)).toEqual({ path: "blocks[1].text", reason: "must be a string" });
    expect(richTextFault(document({ text: "x", type: "iframe" }), anyText)?.path).toBe("blocks[1].type");
    expect(richTextFault(document({ text: "\u0007" }), (text) => !text.includes("\u0007"))?.path).toBe("blocks[1].text");
    expect(richTextFault('{"not":"a document"}', anyText)?.path).toBe("");
  });
});
