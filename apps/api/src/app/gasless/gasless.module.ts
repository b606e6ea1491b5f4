import { Module } from "@nestjs/common";

import { PlayerModule } from "../player/player.module";
import { RoundsModule } from "../rounds/rounds.module";
import { GaslessSettingsController, MerchantGaslessController, PlayerGaslessController, RelayerController } from "./gasless.controller";
import { GaslessRequestsService } from "./gasless-requests.service";
import { GaslessSettingsModule } from "./gasless-settings.module";
import { RelayJobsService } from "./relay-jobs.service";

/** Gasless purchases, claims and refunds (issue #52): the API's mailbox between players and the merchant's relayer. */
@Module({
  imports: [PlayerModule, RoundsModule, GaslessSettingsModule],
  controllers: [PlayerGaslessController, MerchantGaslessController, RelayerController, GaslessSettingsController],
  providers: [GaslessRequestsService, RelayJobsService],
})
export class GaslessModule {}
