import type { Interface, Result } from "ethers";

/** Awaits a transaction (or its gas estimate) that must revert, and decodes the custom error with `contract`. */
export async function expectRevert(action: Promise<unknown>, contract: Interface, errorName: string): Promise<Result> {
  const error = await action.then(
    () => {
      throw new Error(`expected a revert with ${errorName}, but the call succeeded`);
    },
    (caught: unknown) => caught as { data?: string; info?: { error?: { data?: string } } },
  );
  const data = error.data ?? error.info?.error?.data;
  expect(typeof data).toBe("string");
  const expected = contract.getError(errorName)!;
  expect(data!.slice(0, 10)).toBe(expected.selector);
  return contract.parseError(data!)!.args;
}
