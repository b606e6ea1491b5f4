import type { ValueTransformer } from "typeorm";

/**
 * PostgreSQL `bigint` holding block numbers and other counters far below 2^53: exposed as a JS number.
 * Token amounts are `numeric` and stay strings end to end; never use this for them.
 */
export const safeIntegerTransformer: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => {
    if (value === null) return null;
    const parsed = Number(value);
    if (!Number.isSafeInteger(parsed)) throw new RangeError(`bigint column value ${value} is not a safe integer`);
    return parsed;
  },
};
