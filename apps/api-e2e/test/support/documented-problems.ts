import type { NestFastifyApplication } from "@nestjs/platform-fastify";
import type { OpenAPIObject } from "@nestjs/swagger";

import { createOpenApiDocument } from "../../../api/src/openapi/openapi-document";

type Responses = Record<string, { content?: Record<string, { schema?: { allOf?: Array<{ properties?: { code?: { enum?: string[] } } }> } }> }>;

/** The codes the document lists for `method path` at `status` (none when it does not list the status). */
function documentedCodes(document: OpenAPIObject, method: string, path: string, status: number): string[] {
  const operation = (document.paths[path] as Record<string, { responses: Responses }> | undefined)?.[method.toLowerCase()];
  const schema = operation?.responses[String(status)]?.content?.["application/problem+json"]?.schema;
  return schema?.allOf?.flatMap((part) => part.properties?.code?.enum ?? []) ?? [];
}

/**
 * Watches every problem an application answers and keeps those its OpenAPI document does not list for the route and
 * status: the test harness fails a suite that saw one, so an endpoint cannot answer a code the document leaves out.
 * Requests outside the document's routes (unknown paths, /docs) are not its business.
 */
export class UndocumentedProblems {
  private readonly seen = new Set<string>();
  private readonly document: OpenAPIObject;

  /** Call before `app.init()`: the hook must be in place when Nest registers its routes. */
  constructor(app: NestFastifyApplication) {
    this.document = createOpenApiDocument(app);
    app
      .getHttpAdapter()
      .getInstance()
      .addHook("onSend", async (request, reply, payload) => {
        const route = request.routeOptions.url;
        const type = String(reply.getHeader("content-type") ?? "");
        if (route === undefined || !type.startsWith("application/problem+json")) return payload;
        const path = route.replace(/:(\w+)/g, "{$1}");
        if (!this.document.paths[path]) return payload;
        const { code } = JSON.parse(String(payload)) as { code: string };
        if (!documentedCodes(this.document, request.method, path, reply.statusCode).includes(code)) {
          this.seen.add(`${request.method} ${path} answered ${reply.statusCode} ${code}`);
        }
        return payload;
      });
  }

  /** Throws when any answer was not documented. */
  assertNone(): void {
    if (this.seen.size > 0) {
      throw new Error(`answers the OpenAPI document does not list (add the code to the route's @AnswersProblems):\n${[...this.seen].join("\n")}`);
    }
  }
}
