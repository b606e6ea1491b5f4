import { Module } from "@nestjs/common";

import { GaslessSettingsModule } from "../gasless/gasless-settings.module";
import { RoundsModule } from "../rounds/rounds.module";
import { TicketSignModule } from "../ticket-sign/ticket-sign.module";
import { PlayerAuthController, PlayerSessionController } from "./player-auth.controller";
import { PlayerRafflesController, PublicRafflesController, PublicSaleController } from "./player-raffles.controller";
import { PublicReadBudget } from "./public-read-budget.guard";
import { PlayerSessionGuard } from "./player-session.guard";
import { PlayerSessionService } from "./player-session.service";
import { PlayerTicketsService } from "./player-tickets.service";
import { PublicRafflesService } from "./public-raffles.service";

/** Public sale (issue #29): the merchant's switch, Sign-In with Ethereum, and what a signed-in player reads and signs. */
@Module({
  imports: [RoundsModule, TicketSignModule, GaslessSettingsModule],
  controllers: [PlayerAuthController, PlayerSessionController, PublicRafflesController, PlayerRafflesController, PublicSaleController],
  providers: [PlayerSessionService, PlayerSessionGuard, PublicReadBudget, PublicRafflesService, PlayerTicketsService],
  exports: [PlayerSessionService],
})
export class PlayerModule {}
