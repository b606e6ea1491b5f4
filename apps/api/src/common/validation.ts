import { ValidationPipe, type ArgumentMetadata, type ValidationError, type ValidationPipeOptions } from "@nestjs/common";

import { problems, type FieldError } from "./problem";

/**
 * The field a message is about: its property's, or a path under it when the message starts with one
 * (`description.blocks[2].text must be a string`, from a check of a document inside a string field).
 */
function fieldOf(field: string, message: string): string {
  if (!message.startsWith(`${field}.`) && !message.startsWith(`${field}[`)) return field;
  return message.slice(0, message.indexOf(" "));
}

function flatten(errors: ValidationError[], parent = ""): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field: fieldOf(field, message), message }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/** Unknown fields are errors, types are converted, and every bad field is listed. */
export const VALIDATION_OPTIONS: ValidationPipeOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  stopAtFirstError: false,
  validationError: { target: false, value: false },
  exceptionFactory: (errors) => problems.validationFailed(flatten(errors)),
};

/**
 * A hand-written check of a hot route's input: true only for input the DTO's decorators accept as it is, and never for
 * input with a field the DTO does not declare (it runs before the pipe's check of prototype-named fields).
 */
export type FastAccept = (value: unknown) => boolean;

const FAST_ACCEPT = Symbol("fastAccept");

/**
 * Lets a DTO skip class-validator and class-transformer for input that `accept` passes; anything else still goes
 * through them, so the error messages stay theirs. The check must never pass input the decorators refuse: each use
 * has a test that holds it to that over valid and broken inputs.
 */
export function FastAccepts(accept: FastAccept): ClassDecorator {
  return (target) => {
    Object.defineProperty(target, FAST_ACCEPT, { value: accept });
  };
}

/** The hand-written check a DTO class declares with FastAccepts, if any (a direct route runs it before the pipe). */
export function fastAcceptOf(metatype: unknown): FastAccept | undefined {
  return (metatype as { [FAST_ACCEPT]?: FastAccept } | undefined)?.[FAST_ACCEPT];
}

/**
 * Names every object has through its prototype (`constructor`, `toString`, `hasOwnProperty`, ...) and `prototype`.
 * Sent as fields they slip past class-validator's unknown-field check (its whitelist reads them through the
 * prototype), and code that reads them would get the caller's value instead of the function it expects.
 */
const PROTOTYPE_NAMES = new Set([...Object.getOwnPropertyNames(Object.prototype), "prototype"]);

/** Each field of a body or query, at any depth, that is named like a prototype member (walked without recursion). */
export function prototypeNamedFields(value: unknown): FieldError[] {
  const found: FieldError[] = [];
  const stack: Array<[unknown, string]> = [[value, ""]];
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (typeof item !== "object" || item === null) continue;
    for (const [key, child] of Object.entries(item)) {
      const field = path ? `${path}.${key}` : key;
      if (PROTOTYPE_NAMES.has(key)) found.push({ field, message: `property ${key} should not exist` });
      else stack.push([child, field]);
    }
  }
  return found.sort((a, b) => a.field.localeCompare(b.field));
}

class FastPathValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Path parameters stay the text that was sent, for the route's own pipe (idParam): converted to a number here,
    // "0x1", "007" and "1e0" would all have become 1.
    if (metadata.type === "param") return value;
    // First the hot route's own check: it accepts no field outside its DTO, so no prototype-named one, and a body it
    // accepts needs no walk of its fields.
    const metatype = metadata.metatype as (new () => object) & { [FAST_ACCEPT]?: FastAccept };
    if (metatype?.[FAST_ACCEPT]?.(value)) return Object.assign(new metatype(), value);
    if (metadata.type === "body" || metadata.type === "query") {
      const refused = prototypeNamedFields(value);
      if (refused.length > 0) throw problems.validationFailed(refused);
    }
    return super.transform(value, metadata);
  }
}

/** The one global pipe. */
export function createValidationPipe(): ValidationPipe {
  return new FastPathValidationPipe(VALIDATION_OPTIONS);
}
