import { Module } from "@nestjs/common";

import { RaffleConsoleController } from "./raffle-console.controller";
import { RaffleConsoleService } from "./raffle-console.service";

/** The merchant console's raffle routes (issue #30): settings, round history, sales. */
@Module({
  controllers: [RaffleConsoleController],
  providers: [RaffleConsoleService],
  exports: [RaffleConsoleService],
})
export class RaffleConsoleModule {}
