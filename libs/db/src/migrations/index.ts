import { InitialSchema1763769600000 } from "./1763769600000-initial-schema";
import { ClaimVouchers1763800000000 } from "./1763800000000-claim-vouchers";
import { PrizeRedemptionTx1763900000000 } from "./1763900000000-prize-redemption-tx";

/** Every migration, oldest first. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const MIGRATIONS: Function[] = [InitialSchema1763769600000, ClaimVouchers1763800000000, PrizeRedemptionTx1763900000000];

export { PrizeRedemptionTx1763900000000 };
