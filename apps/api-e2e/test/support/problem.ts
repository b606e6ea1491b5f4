import type { Response } from "supertest";

/** Asserts an RFC 9457 problem answer with the API's `code` and `statusCode`; returns its body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a problem body, read by each test as it needs
export function expectProblem(response: Response, status: number, code: string): Record<string, any> {
  expect({ status: response.status, code: response.body?.code }).toEqual({ status, code });
  expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(response.body).toMatchObject({ status, statusCode: status, code, type: expect.any(String), title: expect.any(String) });
  return response.body;
}

/** The distinct field names a validation problem lists. */
export function fieldsOf(body: { errors?: Array<{ field: string; message: string }> }): string[] {
  expect(Array.isArray(body.errors)).toBe(true);
  for (const error of body.errors!) expect(error).toEqual({ field: expect.any(String), message: expect.any(String) });
  return [...new Set(body.errors!.map((error) => error.field))].sort();
}
