import { SetMetadata } from "@nestjs/common";

export const IS_PUBLIC = "isPublic";

/** Marks a route that needs no API key (health, readiness). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);
