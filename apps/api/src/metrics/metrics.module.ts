import { Module } from "@nestjs/common";

import { MetricsController } from "./metrics.controller";
import { OperationsWatch } from "./operations-watch";

/**
 * /metrics and /status, and the gauges of what needs an operator's attention (OperationsWatch). ApiMetrics itself is
 * infrastructure (InfrastructureModule): services record into it.
 */
@Module({ controllers: [MetricsController], providers: [OperationsWatch] })
export class MetricsModule {}
