import { Inject, Injectable } from "@nestjs/common";
import { Interface, getAddress, type TransactionReceipt } from "ethers";
import type { DataSource, EntityManager } from "typeorm";
import { Raffle__factory } from "@raffle/chain";
import { ContractEntity, GaslessRequestEntity, type GaslessAttempt } from "@raffle/db";

import { problems } from "../../common/problem";
import { ServedChains } from "../../services/served-chains";
import { DATA_SOURCE } from "../../services/tokens";
import type { GaslessKind, RelayClaimBody, RelayJobDto, RelayOutcomeBody, RelaySentBody } from "./gasless.dto";
import { LEASE_SECONDS, TICKETS_BY_SIG_INTERFACE } from "./gasless-rules";
import { gaslessRowEntity, toGaslessDto } from "./gasless-requests.service";
import { GaslessSettingsService } from "./gasless-settings.service";
import { nodeRead } from "./chain-read";
import { writeGaslessWebhook, type GaslessWebhookType } from "./gasless-webhooks";

const RAFFLE_EVENTS: Interface = Raffle__factory.createInterface();
const MAX_CACHED_RAFFLES = 10_000;
const SETTLEMENT_TOPICS = new Set(["PrizeClaimed", "TicketRefunded"].map((name) => RAFFLE_EVENTS.getEvent(name)!.topicHash));
const TICKETS_PURCHASED_TOPIC = RAFFLE_EVENTS.getEvent("TicketsPurchased")!.topicHash;

function toJobDto(row: GaslessRequestEntity): RelayJobDto {
  return {
    id: row.id,
    kind: row.kind as GaslessKind,
    chainId: row.chainId,
    to: row.target,
    data: row.calldata,
    notAfter: row.notAfter,
    attempts: row.attempts,
    leaseExpiresAt: row.leaseExpiresAt!.toISOString(),
  };
}

/**
 * The relayer's side of the mailbox: leases (FOR UPDATE SKIP LOCKED, so two relayers never hold one job), the
 * transactions each sends, and outcomes the API verifies from the chain itself before it believes them.
 */
@Injectable()
export class RelayJobsService {
  private readonly raffleAddresses = new Map<number, string>();

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly chains: ServedChains,
    private readonly settings: GaslessSettingsService,
  ) {}

  async claim(merchantId: number, body: RelayClaimBody): Promise<RelayJobDto[]> {
    this.chains.get(body.chainId);
    const limit = body.limit ?? 20;
    return this.dataSource.transaction(async (manager) => {
      await this.settings.heartbeat(manager, merchantId, body.chainId, body.relayerId);
      await this.expireUnsent(manager, merchantId, body.chainId);
      // Relaying off, or today's budget spent: held jobs go on (their transactions may be out already), nothing new is
      // leased, and over budget the queued ones fail at once rather than wait out their deadline.
      const settings = await this.settings.settings(merchantId, manager);
      const overBudget = (await this.settings.spentToday(merchantId, manager)) >= BigInt(settings.dailyGasBudgetWei);
      if (overBudget) await this.failQueued(manager, merchantId, body.chainId, "gaslessBudgetExhausted");
      const renewed: Record<string, unknown>[] = unwrap(
        await manager.query(
          `UPDATE gasless_request SET lease_expires_at = now() + $4 * interval '1 second'
            WHERE merchant_id = $1 AND chain_id = $2 AND lease_holder = $3 AND lease_expires_at > now() AND state IN ('queued', 'sent')
           RETURNING *`,
          [merchantId, body.chainId, body.relayerId, LEASE_SECONDS],
        ),
      );
      const room = settings.enabled && !overBudget ? Math.max(0, limit - renewed.length) : 0;
      const leased: Record<string, unknown>[] =
        room === 0
          ? []
          : unwrap(
              await manager.query(
                `UPDATE gasless_request g SET lease_holder = $3, lease_expires_at = now() + $4 * interval '1 second'
                   FROM (SELECT id FROM gasless_request
                          WHERE merchant_id = $1 AND chain_id = $2 AND state IN ('queued', 'sent') AND (lease_holder IS NULL OR lease_expires_at <= now())
                          ORDER BY created_at LIMIT $5 FOR UPDATE SKIP LOCKED) free
                  WHERE g.id = free.id
                 RETURNING g.*`,
                [merchantId, body.chainId, body.relayerId, LEASE_SECONDS, room],
              ),
            );
      return [...renewed, ...leased]
        .map((raw) => gaslessRowEntity(manager, raw))
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
        .map(toJobDto);
    });
  }

  /**
   * Records an attempt in one statement when the relayer holds the job and the hash is new (the usual case: one
   * report per transaction, before its broadcast); otherwise the held-job check says why, or a repeated report is a
   * no-op. The first attempt moves the job to `sent` and is announced.
   */
  async sent(merchantId: number, id: string, body: RelaySentBody): Promise<void> {
    const attempt: GaslessAttempt = {
      txHash: body.txHash.toLowerCase(),
      nonce: body.nonce,
      maxFeePerGas: body.maxFeePerGas,
      maxPriorityFeePerGas: body.maxPriorityFeePerGas,
      sentAt: new Date().toISOString(),
    };
    await this.dataSource.transaction(async (manager) => {
      const recorded: Record<string, unknown>[] = unwrap(
        await manager.query(
          `UPDATE gasless_request SET attempts = attempts || $2::jsonb, tx_hash = $3, state = 'sent', updated_at = now(),
                  lease_expires_at = now() + $4 * interval '1 second'
            WHERE id = $1 AND merchant_id = $5 AND lease_holder = $6 AND lease_expires_at > now() AND state IN ('queued', 'sent')
              AND NOT attempts @> $7::jsonb
           RETURNING *`,
          [id, JSON.stringify([attempt]), attempt.txHash, LEASE_SECONDS, merchantId, body.relayerId, JSON.stringify([{ txHash: attempt.txHash }])],
        ),
      );
      if (recorded.length === 0) {
        // Not held (the check throws the problem that says why), or this hash is on record already.
        const row = await this.heldJob(manager, merchantId, id, body.relayerId);
        if (row.attempts.some((known) => known.txHash.toLowerCase() === attempt.txHash)) return;
        throw problems.relayJobNotHeld("the job changed while the attempt was recorded; claim jobs again");
      }
      const job = gaslessRowEntity(manager, recorded[0]);
      // Attempts are only ever added, and only here: one attempt now means the job was queued until this report.
      if (job.attempts.length === 1) await writeGaslessWebhook(manager, job.merchantId, "gasless.sent", toGaslessDto(job), null);
    });
  }

  async outcome(merchantId: number, id: string, body: RelayOutcomeBody): Promise<void> {
    // The chain is read before any row is locked: a slow node never holds a job's lock.
    const before = await this.dataSource.getRepository(GaslessRequestEntity).findOneBy({ id, merchantId });
    if (!before) throw problems.gaslessRequestNotFound();
    if (before.state === "mined" && body.outcome === "mined" && (!body.txHash || body.txHash.toLowerCase() === before.txHash)) return;
    if (before.state === "mined" || before.state === "failed") throw problems.relayJobNotHeld(`the job is already ${before.state}`);
    const chain = this.chains.get(before.chainId);
    if (body.outcome === "mined") {
      const txHash = (body.txHash ?? before.txHash ?? "").toLowerCase();
      if (!before.attempts.some((attempt) => attempt.txHash === txHash))
        throw problems.outcomeUnverified("the transaction is not one the relayer reported sending for this job");
      const [receipt, transaction] = await Promise.all([
        nodeRead(chain.provider.getTransactionReceipt(txHash)),
        nodeRead(chain.provider.getTransaction(txHash)),
      ]);
      if (!receipt || !transaction) throw problems.outcomeUnverified("the transaction has no receipt");
      if (receipt.status !== 1) throw problems.outcomeUnverified("the transaction reverted; report it failed");
      if (!receipt.to || getAddress(receipt.to) !== getAddress(before.target))
        throw problems.outcomeUnverified("the transaction was not sent to the Exchange");
      if (transaction.data.toLowerCase() !== before.calldata.toLowerCase())
        throw problems.outcomeUnverified("the transaction's calldata is not the job's");
      const ticketIds = settledTickets(before, await this.raffleAddress(before.contractId), receipt);
      if (!ticketIds) throw problems.outcomeUnverified(`the receipt lacks the ${before.kind}'s events`);
      const gasCost = receipt.gasUsed * (receipt.gasPrice ?? transaction.gasPrice ?? 0n);
      await this.dataSource.transaction(async (manager) => {
        const closed = await this.closeHeld(
          manager,
          merchantId,
          id,
          body.relayerId,
          `state = 'mined', tx_hash = $4, gas_cost_wei = $5, mined_at = now(), ticket_ids = $6::jsonb`,
          [txHash, gasCost.toString(), JSON.stringify(ticketIds)],
        );
        await writeGaslessWebhook(manager, closed.merchantId, "gasless.mined", toGaslessDto(closed), {
          number: receipt.blockNumber,
          hash: receipt.blockHash,
        });
      });
      return;
    }
    // A failure is believed only if no transaction of the job succeeded: a relayer cannot hide a purchase that happened.
    for (const attempt of before.attempts) {
      const receipt = await nodeRead(chain.provider.getTransactionReceipt(attempt.txHash));
      if (receipt?.status === 1) throw problems.outcomeUnverified(`transaction ${attempt.txHash} succeeded; report it mined`);
    }
    await this.dataSource.transaction(async (manager) => {
      const closed = await this.closeHeld(manager, merchantId, id, body.relayerId, `state = 'failed', failure_code = $4`, [body.failureCode ?? null]);
      await writeGaslessWebhook(manager, closed.merchantId, "gasless.failed", toGaslessDto(closed), null);
    });
  }

  /**
   * Closes a job the relayer holds, in one statement (`set` takes its values from $4 on), and answers the closed row;
   * a job not held is left alone and the held-job check throws the problem that says why.
   */
  private async closeHeld(
    manager: EntityManager,
    merchantId: number,
    id: string,
    relayerId: string,
    set: string,
    values: unknown[],
  ): Promise<GaslessRequestEntity> {
    const closed: Record<string, unknown>[] = unwrap(
      await manager.query(
        `UPDATE gasless_request SET ${set}, lease_holder = NULL, lease_expires_at = NULL, updated_at = now()
          WHERE id = $1 AND merchant_id = $2 AND lease_holder = $3 AND lease_expires_at > now() AND state IN ('queued', 'sent')
         RETURNING *`,
        [id, merchantId, relayerId, ...values],
      ),
    );
    if (closed.length === 0) {
      await this.heldJob(manager, merchantId, id, relayerId);
      throw problems.relayJobNotHeld("the job changed while its outcome was recorded; claim jobs again");
    }
    return gaslessRowEntity(manager, closed[0]);
  }

  /** A raffle's address never changes: each is read once. */
  private async raffleAddress(contractId: number): Promise<string> {
    let address = this.raffleAddresses.get(contractId);
    if (!address) {
      address = (await this.dataSource.getRepository(ContractEntity).findOneByOrFail({ id: contractId })).address;
      if (this.raffleAddresses.size >= MAX_CACHED_RAFFLES) this.raffleAddresses.clear();
      this.raffleAddresses.set(contractId, address);
    }
    return address;
  }

  /** The job locked, if `relayerId` holds its live lease and it is not final yet. */
  private async heldJob(manager: EntityManager, merchantId: number, id: string, relayerId: string): Promise<GaslessRequestEntity> {
    const row = await manager
      .getRepository(GaslessRequestEntity)
      .createQueryBuilder("job")
      .setLock("pessimistic_write")
      .where("job.id = :id AND job.merchant_id = :merchantId", { id, merchantId })
      .getOne();
    if (!row) throw problems.gaslessRequestNotFound();
    if (row.state === "mined" || row.state === "failed") throw problems.relayJobNotHeld(`the job is already ${row.state}`);
    if (row.leaseHolder !== relayerId)
      throw problems.relayJobNotHeld(row.leaseHolder ? "its lease is held by another relayer" : "it is not leased to this relayer");
    if (!row.leaseExpiresAt || row.leaseExpiresAt.getTime() <= Date.now()) throw problems.relayJobNotHeld("its lease expired; claim jobs again");
    return row;
  }

  /** Queued jobs nobody sent before their deadline can only fail: the player's tokens never moved. */
  private async expireUnsent(manager: EntityManager, merchantId: number, chainId: number): Promise<void> {
    await this.failQueued(manager, merchantId, chainId, "voucherExpired", true);
  }

  /** Fails the queued jobs (those past their deadline only, with `expiredOnly`), each announced. */
  private async failQueued(manager: EntityManager, merchantId: number, chainId: number, failureCode: string, expiredOnly = false): Promise<void> {
    const failed: Array<{ id: string }> = unwrap(
      await manager.query(
        `UPDATE gasless_request SET state = 'failed', failure_code = $3, lease_holder = NULL, lease_expires_at = NULL, updated_at = now()
          WHERE merchant_id = $1 AND chain_id = $2 AND state = 'queued' AND ($4 = false OR not_after < extract(epoch FROM now()))
         RETURNING id`,
        [merchantId, chainId, failureCode, expiredOnly],
      ),
    );
    for (const { id } of failed) await this.announce(manager, id, "gasless.failed", null);
  }

  private async announce(
    manager: EntityManager,
    id: string,
    type: GaslessWebhookType,
    block: { number: number; hash: string } | null,
  ): Promise<void> {
    const row = await manager.getRepository(GaslessRequestEntity).findOneByOrFail({ id });
    await writeGaslessWebhook(manager, row.merchantId, type, toGaslessDto(row), block);
  }
}

/** UPDATE ... RETURNING answers [rows, count] through TypeORM's postgres driver. */
function unwrap<T>(result: unknown): T[] {
  return (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === "number" ? result[0] : result) as T[];
}

/**
 * The ticket ids the receipt shows the job settled, from the raffle's own logs, or null when they are not all there:
 * a purchase's `TicketsPurchased` for the buyer and quantity; a claim's `PrizeClaimed` or a refund's `TicketRefunded`
 * of each ticket to the holder.
 */
export function settledTickets(
  job: Pick<GaslessRequestEntity, "kind" | "account" | "quantity" | "calldata">,
  raffle: string,
  receipt: TransactionReceipt,
): string[] | null {
  const address = raffle.toLowerCase();
  if (job.kind === "purchase") return purchasedTickets(job, address, receipt);
  // Only the raffle's logs of the two events are decoded: a receipt also holds the token's and the ticket's logs, and
  // decoding each (a throw for every other event) was a millisecond per report.
  const events = receipt.logs
    .filter((log) => log.address.toLowerCase() === address && SETTLEMENT_TOPICS.has(log.topics[0]))
    .map((log) => {
      try {
        return RAFFLE_EVENTS.parseLog(log);
      } catch {
        return null;
      }
    })
    .filter((event) => event !== null);
  const name = job.kind === "claim" ? "PrizeClaimed" : "TicketRefunded";
  const holderOf = (event: NonNullable<(typeof events)[number]>) => getAddress(job.kind === "claim" ? event.args.winner : event.args.owner);
  const settled = new Set(
    events.filter((event) => event.name === name && holderOf(event) === job.account).map((event) => String(event.args.ticketId)),
  );
  const asked = askedTickets(job.kind as "claim" | "refund", job.calldata);
  return asked.every((ticketId) => settled.has(ticketId)) ? asked : null;
}

/**
 * A purchase's tickets from the raffle's `TicketsPurchased(roundId, account, firstTicketId indexed; quantity, ...)`
 * read by its words: `parseLog` checksummed every address in JavaScript, most of a report's CPU at 50 reports a second.
 */
function purchasedTickets(job: Pick<GaslessRequestEntity, "account" | "quantity">, raffle: string, receipt: TransactionReceipt): string[] | null {
  const account = `0x${job.account.slice(2).toLowerCase().padStart(64, "0")}`;
  const bought = receipt.logs.find(
    (log) =>
      log.address.toLowerCase() === raffle &&
      log.topics.length === 4 &&
      log.topics[0] === TICKETS_PURCHASED_TOPIC &&
      log.topics[2].toLowerCase() === account &&
      log.data.length >= 66 &&
      BigInt(log.data.slice(0, 66)) === BigInt(job.quantity ?? -1),
  );
  if (!bought) return null;
  const first = BigInt(bought.topics[3]);
  return Array.from({ length: job.quantity! }, (_, index) => (first + BigInt(index)).toString());
}

function askedTickets(kind: "claim" | "refund", calldata: string): string[] {
  const decoded = TICKETS_BY_SIG_INTERFACE.decodeFunctionData(kind === "claim" ? "claimPrizesBySig" : "refundTicketsBySig", calldata);
  return (decoded.tickets as Array<{ ticketId: bigint }>).map((ticket) => ticket.ticketId.toString());
}
