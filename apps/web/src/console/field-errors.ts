import { ApiError } from "../lib/api";

/**
 * The API's sentence for each field of a form, from a validationFailed problem: keyed by the top-level field
 * (`description.blocks[2].text` is the description's), first sentence wins. Empty for any other failure.
 */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.code !== "validationFailed") return {};
  const byField: Record<string, string> = {};
  for (const { field, message } of error.fields) {
    const name = field.split(/[.[]/)[0];
    byField[name] ??= message.charAt(0).toUpperCase() + message.slice(1);
  }
  return byField;
}

/** The props that tie an input to its inline error: aria-invalid and aria-describedby (with any help text). */
export function invalidProps(errors: Record<string, string>, field: string, errorId: string, helpId?: string) {
  const ids = [helpId, errors[field] ? errorId : undefined].filter(Boolean).join(" ");
  return { "aria-invalid": errors[field] ? true : undefined, "aria-describedby": ids || undefined };
}
