import { Module } from "@nestjs/common";

import { GaslessSettingsService } from "./gasless-settings.service";

/** Merchants' relaying settings and what raffle reads show of them: the player module's raffle reads use it too. */
@Module({ providers: [GaslessSettingsService], exports: [GaslessSettingsService] })
export class GaslessSettingsModule {}
