/** A whole number as the API writes it (a decimal string) or the chain answers it (a bigint). */
export type Integer = string | number | bigint;
