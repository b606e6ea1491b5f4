import { Module } from "@nestjs/common";

import { RaffleContractsController } from "./raffle-contracts.controller";
import { RaffleContractsService } from "./raffle-contracts.service";

@Module({
  controllers: [RaffleContractsController],
  providers: [RaffleContractsService],
  exports: [RaffleContractsService],
})
export class RaffleContractsModule {}
