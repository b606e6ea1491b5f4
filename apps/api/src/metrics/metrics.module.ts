import { Module } from "@nestjs/common";

import { MetricsController } from "./metrics.controller";

/** /metrics and /status. ApiMetrics itself is infrastructure (InfrastructureModule): services record into it. */
@Module({ controllers: [MetricsController] })
export class MetricsModule {}
