/**
 * What a client of the API calls on the platform: the Exchange's purchase and claim, its gasless entry points (what a
 * relayer submits), and the ticket's Transfer event
 * that names a bought ticket, generated from the compiled contracts (generated/client-abis.ts).
 */
export { EXCHANGE_CLIENT_ABI, EXCHANGE_GASLESS_ABI, TICKET_TRANSFER_ABI } from "./generated/client-abis";
