import { createParamDecorator, type ExecutionContext } from "@nestjs/common";

import type { Caller } from "./api-key.service";

/** The authenticated caller, set on the request by ApiKeyGuard. */
export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller => {
  return context.switchToHttp().getRequest<{ caller: Caller }>().caller;
});
