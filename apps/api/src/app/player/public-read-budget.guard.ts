import { Inject, Injectable, type CanActivate, type ExecutionContext } from "@nestjs/common";
import type { FastifyRequest } from "fastify";

import type { ApiConfig } from "../../config/api-config";
import { problems } from "../../common/problem";
import { RateLimiter } from "../../services/rate-limiter";
import { API_CONFIG } from "../../services/tokens";

/**
 * The public reads (`GET /player/raffles...`, each a read over several tables, and no key to count them by) are
 * counted per client IP: past RATE_LIMIT_PUBLIC_READS_PER_IP in a window, 429 tooManyRequests with `Retry-After`.
 */
@Injectable()
export class PublicReadBudget implements CanActivate {
  constructor(
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    private readonly rateLimiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { ip } = context.switchToHttp().getRequest<FastifyRequest>();
    const limit = await this.rateLimiter.countClient("reads", ip, this.config.player.publicReadsPerIp);
    if (!limit.allowed) throw problems.tooManyRequests(limit.retryAfterSeconds, "ip");
    return true;
  }
}
