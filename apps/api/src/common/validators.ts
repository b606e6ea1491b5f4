import { Transform } from "class-transformer";
import { isAddressText } from "@raffle/chain";
import { ValidateBy, buildMessage, type ValidationOptions } from "class-validator";

/** A 0x-prefixed 20-byte address: all lowercase, all uppercase, or correctly EIP-55 checksummed. */
export function IsEthereumAddress(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: "isEthereumAddress",
      validator: {
        validate: (value: unknown) => isAddressText(value),
        defaultMessage: buildMessage((prefix) => `${prefix}$property must be a 0x-prefixed 20-byte address`, options),
      },
    },
    options,
  );
}

/**
 * Query strings arrive as text: convert a decimal integer string to a number and leave anything else as it is,
 * so that `IsInt` rejects "1.5", "1e3", "0x10", " 7" and arrays instead of silently coercing them.
 */
export function ToInteger(): PropertyDecorator {
  return Transform(({ value }) => (typeof value === "string" && /^-?\d{1,16}$/.test(value) ? Number(value) : value));
}
