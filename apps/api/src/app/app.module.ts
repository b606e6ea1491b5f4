import { Module, type DynamicModule } from "@nestjs/common";
import type { DataSource } from "typeorm";

import type { ApiConfig } from "../config/api-config";
import { MetricsModule } from "../metrics/metrics.module";
import { InfrastructureModule } from "../services/infrastructure.module";
import { AuthModule } from "./auth/auth.module";
import { ClaimsModule } from "./claims/claims.module";
import { GaslessModule } from "./gasless/gasless.module";
import { HealthModule } from "./health/health.module";
import { MerchantModule } from "./merchant/merchant.module";
import { PlayerModule } from "./player/player.module";
import { RaffleConsoleModule } from "./raffle-console/raffle-console.module";
import { RaffleContractsModule } from "./raffle-contracts/raffle-contracts.module";
import { RoundsModule } from "./rounds/rounds.module";
import { TicketSignModule } from "./ticket-sign/ticket-sign.module";
import { WebhooksModule } from "./webhooks/webhooks.module";

@Module({})
export class AppModule {
  static forRoot(config: ApiConfig, dataSource: DataSource): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfrastructureModule.forRoot(config, dataSource),
        AuthModule,
        RaffleContractsModule,
        RoundsModule,
        TicketSignModule,
        ClaimsModule,
        HealthModule,
        MetricsModule,
        WebhooksModule,
        PlayerModule,
        MerchantModule,
        RaffleConsoleModule,
        GaslessModule,
      ],
    };
  }
}
