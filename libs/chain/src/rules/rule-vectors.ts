import vectors from "./vectors.json";

/**
 * The shared cases of the Raffle's pure rules (vectors.json): one file that the contract tests, these rules, the
 * indexer, the SDK and the player app all check, so a rule changed in one place and not another fails a test.
 */
export interface RuleVectors {
  prizeSplit: Array<{ name: string; pot: string; shares: number[]; amounts: string[] }>;
  commission: Array<{ name: string; amount: string; rate: number; commission: string; net: string }>;
  draw: Array<{ name: string; randomWord: string; firstTicketId: string; ticketCount: string; winnersCount: number; winners: string[] }>;
  bundlePrice: Array<{
    name: string;
    unitPrice: string;
    bundles: Array<{ quantity: number; price: string }>;
    quantity: number;
    perTicket: string;
    tier: number;
    total: string;
  }>;
}

export const RULE_VECTORS: RuleVectors = vectors;
