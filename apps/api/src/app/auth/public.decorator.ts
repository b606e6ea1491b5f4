import { SetMetadata, applyDecorators } from "@nestjs/common";

export const IS_PUBLIC = "isPublic";

/** @nestjs/swagger's metadata key of `@ApiSecurity` (not exported); the OpenAPI spec checks that /health stays open. */
const SWAGGER_SECURITY = "swagger/apiSecurity";

/** Marks a route (or every route of a controller) that needs no API key: health and readiness. */
export const Public = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(IS_PUBLIC, true),
    // The OpenAPI document's `security: []`: no requirement overrides the document-wide API key.
    (target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
      Reflect.defineMetadata(SWAGGER_SECURITY, [], descriptor ? descriptor.value : target);
    },
  );
