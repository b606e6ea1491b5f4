import { Transform } from "class-transformer";
import { isAddressText } from "@raffle/chain";
import { ValidateBy, ValidateIf, buildMessage, type ValidationOptions } from "class-validator";

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

const ZERO_ADDRESS = /^0x0{40}$/;

/** An address that can act: well-formed as for IsEthereumAddress, and not the zero address, which can never send. */
export function isAccountText(value: unknown): boolean {
  return isAddressText(value) && !ZERO_ADDRESS.test(value as string);
}

/**
 * A buyer's or a claimant's account: a voucher made out to the zero address can never be used (no transaction comes
 * from it), so it is refused with the other bad input.
 */
export function IsAccountAddress(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: "isAccountAddress",
      validator: {
        validate: (value: unknown) => isAccountText(value),
        defaultMessage: buildMessage((prefix) => `${prefix}$property must be a 0x-prefixed 20-byte address other than the zero address`, options),
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

/**
 * A token contract: well-formed, and not the zero address, where no contract lives (a voucher for it could never be
 * redeemed).
 */
export function IsTokenAddress(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: "isTokenAddress",
      validator: {
        validate: (value: unknown) => isAccountText(value),
        defaultMessage: buildMessage(
          (prefix) => `${prefix}$property must be a token contract's 0x-prefixed 20-byte address, not the zero address`,
          options,
        ),
      },
    },
    options,
  );
}

/**
 * An optional field that may be left out but never set to null: class-validator's IsOptional lets null through, and
 * a null `events` or `chainId` would then mean "every event" or "chain null" further on. The field's other
 * decorators refuse null with their own message.
 */
export function IsOmittable(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined);
}

/** Free text stored in PostgreSQL: no control characters (a NUL cannot be stored at all) but tab and line breaks. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const PRINTABLE_TEXT = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]*$/;
