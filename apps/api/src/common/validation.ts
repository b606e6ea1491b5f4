import { ValidationPipe, type ArgumentMetadata, type ValidationError, type ValidationPipeOptions } from "@nestjs/common";

import { problems, type FieldError } from "./problem";

function flatten(errors: ValidationError[], parent = ""): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
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

/** A hand-written check of a hot route's input: true only for input the DTO's decorators accept as it is. */
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

class FastPathValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const metatype = metadata.metatype as (new () => object) & { [FAST_ACCEPT]?: FastAccept };
    if (metatype?.[FAST_ACCEPT]?.(value)) return Object.assign(new metatype(), value);
    return super.transform(value, metadata);
  }
}

/** The one global pipe. */
export function createValidationPipe(): ValidationPipe {
  return new FastPathValidationPipe(VALIDATION_OPTIONS);
}
