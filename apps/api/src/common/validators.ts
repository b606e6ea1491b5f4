import { Transform } from "class-transformer";
import { isAddressText } from "@raffle/chain";
import { richTextFault } from "@raffle/db";
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

/**
 * Characters that change how text around them reads without showing themselves: the bidirectional embeddings,
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069), the Arabic letter mark (U+061C), zero-width characters and
 * marks (U+200B–U+200F), the invisible operators (U+2060–U+2064, and U+2065, unassigned) and the byte order mark
 * (U+FEFF). In a title one merchant could make its raffle read as another's.
 */
const INVISIBLE_OR_DIRECTIONAL = /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/;
/** A UTF-16 surrogate without its pair (from a `\ud800` escape in JSON): no character at all. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Short text merchants write and others read (titles, key labels, webhook descriptions): printable, visible, one way. */
export function isDisplayText(value: unknown): boolean {
  return typeof value === "string" && PRINTABLE_TEXT.test(value) && !INVISIBLE_OR_DIRECTIONAL.test(value) && !LONE_SURROGATE.test(value);
}

/** The one check of merchant-written short text (isDisplayText), for every body field that holds some. */
export function IsDisplayText(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: "isDisplayText",
      validator: {
        validate: (value: unknown) => isDisplayText(value),
        defaultMessage: buildMessage(
          (prefix) =>
            `${prefix}$property must not contain control characters, invisible or direction-changing characters (U+061C, U+200B–U+200F, U+202A–U+202E, U+2060–U+2069, U+FEFF) or lone surrogates`,
          options,
        ),
      },
    },
    options,
  );
}

/**
 * A `description` of a raffle: plain text, or a spec 2.9 rich-text document that readers can rely on (richTextFault).
 * The message names the faulty part as a path under the field (`description.blocks[2].text ...`), which the
 * validation pipe reports as that field.
 */
export function IsRichTextDescription(options?: ValidationOptions): PropertyDecorator {
  const isText = (text: string) => PRINTABLE_TEXT.test(text);
  return ValidateBy(
    {
      name: "isRichTextDescription",
      validator: {
        validate: (value: unknown) => typeof value === "string" && richTextFault(value, isText) === null,
        defaultMessage: (args) => {
          const fault = typeof args?.value === "string" ? richTextFault(args.value, isText) : null;
          if (!fault) return `${args?.property} must be plain text or a rich-text document (spec 2.9)`;
          return `${args?.property}${fault.path ? `.${fault.path}` : ""} ${fault.reason}`;
        },
      },
    },
    options,
  );
}
