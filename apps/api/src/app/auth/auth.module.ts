import { Module } from "@nestjs/common";
import { APP_GUARD } from "@nestjs/core";

import { ApiKeyGuard } from "./api-key.guard";
import { ApiKeyService } from "./api-key.service";
import { MerchantSessions } from "./merchant-sessions.service";

@Module({
  providers: [ApiKeyService, MerchantSessions, { provide: APP_GUARD, useClass: ApiKeyGuard }],
  exports: [ApiKeyService, MerchantSessions],
})
export class AuthModule {}
