import { ContractKind } from "../decode";
import { argString } from "../indexed-event";
import { onEvent, type SingleEventHandler } from "./handler";
import { pauseChanged, updateReturning } from "./shared";

/** The platform's Exchange. Its pause is the platform's, not a merchant's: no webhook announces it. */
export const EXCHANGE_HANDLERS: SingleEventHandler[] = [
  onEvent({
    /**
     * A claim voucher was used on-chain: the chain is the truth, even for a voucher the merchant canceled. Matched by
     * nonce alone, though voucher rows carry no chain id and the Exchange has the same address on every chain: nonces
     * are unique across all claims (UQ_claim_nonce), and the voucher's EIP-712 domain holds its chain id, so its nonce
     * can appear in a Claimed event of that one chain only.
     */
    contract: ContractKind.EXCHANGE,
    event: "Claimed",
    writes: ["claim"],
    webhook: "claim.redeemed",
    async project(_deps, manager, event) {
      const [claim] = await updateReturning<{ id: number; merchant_id: number; contract_id: number | null; items: never }>(
        manager,
        `UPDATE claim SET claim_status = 'REDEEMED', redeemed_tx_hash = $2, updated_at = $3
          WHERE claim_type = 'VOUCHER' AND nonce = $1 RETURNING id, merchant_id, contract_id, items`,
        [argString(event.args, "nonce"), event.txHash, event.blockTimestamp],
      );
      // A voucher this database never issued concerns no merchant here.
      if (!claim) return { subject: null };
      return { subject: { merchantId: claim.merchant_id, contractId: claim.contract_id ?? null, data: { claimId: claim.id, items: claim.items } } };
    },
  }),
  onEvent({
    contract: ContractKind.EXCHANGE,
    event: "Paused",
    writes: ["contract"],
    project: (_deps, manager, event, exchange) => pauseChanged(manager, exchange, event),
  }),
  onEvent({
    contract: ContractKind.EXCHANGE,
    event: "Unpaused",
    writes: ["contract"],
    project: (_deps, manager, event, exchange) => pauseChanged(manager, exchange, event),
  }),
];
