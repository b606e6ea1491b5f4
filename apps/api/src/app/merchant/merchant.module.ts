import { Module } from "@nestjs/common";

import { AuthModule } from "../auth/auth.module";
import { PlayerModule } from "../player/player.module";
import { MerchantApiKeysController } from "./merchant-api-keys.controller";
import { MerchantAuthController, MerchantSessionController } from "./merchant-auth.controller";
import { OverviewController } from "./overview.controller";
import { OverviewService } from "./overview.service";

/** The merchant console (issue #30): the merchant's wallet sign-in, its API keys and its overview. */
@Module({
  imports: [AuthModule, PlayerModule],
  controllers: [MerchantAuthController, MerchantSessionController, MerchantApiKeysController, OverviewController],
  providers: [OverviewService],
})
export class MerchantModule {}
