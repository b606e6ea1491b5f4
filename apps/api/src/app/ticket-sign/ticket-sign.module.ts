import { Module } from "@nestjs/common";

import { RaffleContractsModule } from "../raffle-contracts/raffle-contracts.module";
import { RoundsModule } from "../rounds/rounds.module";
import { TicketSignController } from "./ticket-sign.controller";
import { TicketSignService } from "./ticket-sign.service";

@Module({
  imports: [RaffleContractsModule, RoundsModule],
  controllers: [TicketSignController],
  providers: [TicketSignService],
  exports: [TicketSignService],
})
export class TicketSignModule {}
