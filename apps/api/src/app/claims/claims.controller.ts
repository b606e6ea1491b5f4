import { Controller, Get, Inject, Query } from "@nestjs/common";
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from "@nestjs/swagger";
import { getAddress } from "ethers";
import type { DataSource } from "typeorm";
import { ClaimEntity } from "@raffle/db";

import { DATA_SOURCE } from "../../services/tokens";
import type { Caller } from "../auth/api-key.service";
import { CurrentCaller } from "../auth/current-caller.decorator";
import { ClaimListDto, ClaimsQuery, toClaimDto } from "./claims.dto";

@ApiTags("claims")
@ApiBearerAuth()
@Controller("claims")
export class ClaimsController {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  @Get()
  @ApiOperation({ summary: "An account's claims with the calling merchant, newest first." })
  @ApiOkResponse({ type: ClaimListDto })
  async list(@CurrentCaller() caller: Caller, @Query() query: ClaimsQuery): Promise<ClaimListDto> {
    const [rows, count] = await this.dataSource.getRepository(ClaimEntity).findAndCount({
      where: {
        merchantId: caller.merchantId,
        account: getAddress(query.account),
        ...(query.claimStatus ? { claimStatus: query.claimStatus } : {}),
      },
      order: { createdAt: "DESC", id: "DESC" },
      skip: query.skip,
      take: query.take,
    });
    return { rows: rows.map(toClaimDto), count };
  }
}
