/**
 * Every number this API reads or writes is an integer (ids, counts, timestamps, token types; amounts travel as
 * decimal strings), but TypeScript's `number` reaches the OpenAPI document as `type: number`. This makes each of them
 * `integer` in place, in schemas and parameters alike, so generated clients use integer types.
 */
export function numbersAsIntegers(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) numbersAsIntegers(item);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const record = node as Record<string, unknown>;
  if (record.type === "number") record.type = "integer";
  for (const value of Object.values(record)) numbersAsIntegers(value);
}
