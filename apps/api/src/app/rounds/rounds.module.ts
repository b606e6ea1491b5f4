import { Module } from "@nestjs/common";

import { RaffleContractsModule } from "../raffle-contracts/raffle-contracts.module";
import { RoundsController } from "./rounds.controller";
import { RoundsService } from "./rounds.service";

@Module({
  imports: [RaffleContractsModule],
  controllers: [RoundsController],
  providers: [RoundsService],
  exports: [RoundsService],
})
export class RoundsModule {}
