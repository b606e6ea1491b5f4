import { Module } from "@nestjs/common";
import { APP_GUARD } from "@nestjs/core";

import { ApiKeyGuard } from "./api-key.guard";
import { ApiKeyService } from "./api-key.service";

@Module({
  providers: [ApiKeyService, { provide: APP_GUARD, useClass: ApiKeyGuard }],
  exports: [ApiKeyService],
})
export class AuthModule {}
