import { computeAddress, id, type JsonRpcProvider } from "ethers";
import { Exchange__factory, servedChainId as askServedChainId, wrongChainMessage, type Exchange } from "@raffle/chain";
import { urlOrigin } from "@raffle/config";

import type { ChainConfig } from "../config/api-config";
import { DEPLOYED_CONTRACT_FIELDS } from "../config/deployment-file";
import { StartupError } from "./api-database";
import { jsonLog } from "../logging/logger";

const SIGNER_ROLE = id("SIGNER_ROLE");
/** How long /ready waits for the node before calling it unreachable. */
const PROBE_TIMEOUT_MS = 2_000;

export type SignerStatus = "authorized" | "unauthorized" | "unverified";

/** A voucher key the API may sign with on this chain: the current one, or the next one during a rotation. */
export interface VoucherKey {
  /** "current" (SIGNER_...) or "next" (SIGNER_NEXT_...). */
  role: "current" | "next";
  address: string;
  /** Whether it holds SIGNER_ROLE on the Exchange, as last checked. */
  status: SignerStatus;
}

/** A dependency that is not as the endpoints need it, named as /ready reports it. */
export interface DependencyProblem {
  field: "chain" | "deployment" | "signer";
  message: string;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Watches what the API assumes of one chain: the node at RPC_URL answers and serves that chain, the deployment's
 * contracts have code there, and the voucher key holds SIGNER_ROLE on the Exchange. At start a node that answers
 * with any of these wrong stops the API; afterwards each check repeats every CHAIN_CHECK_INTERVAL_SECONDS (the code
 * again after each reconnect), /ready fails while one does not hold, and the sign endpoint refuses unless the role is
 * confirmed. Each change of state is logged once.
 */
export class ChainMonitor {
  /** The current key first, then the next one (when SIGNER_NEXT_... is set). */
  private readonly keys: VoucherKey[];
  private readonly rpc: string;
  private reachable: boolean | null = null;
  private unreachableReason = "";
  private servedChainId: number | null = null;
  private missingCode: string[] | null = null;
  /** The key vouchers are signed with now: the next key once it holds the role, else the current one. */
  private active: VoucherKey;
  private firstCheck: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private refreshing: Promise<void> | null = null;
  /**
   * Built once: connecting a typechain contract parses the Exchange's whole ABI, which cost more than the role check's
   * call itself (every worker checks every chain each CHAIN_CHECK_INTERVAL_SECONDS).
   */
  private readonly exchange: Exchange;

  constructor(
    private readonly config: ChainConfig,
    private readonly provider: JsonRpcProvider,
    private readonly checkIntervalMs: number,
  ) {
    this.keys = [{ role: "current", address: computeAddress(config.signerPrivateKey), status: "unverified" }];
    if (config.nextSignerPrivateKey) this.keys.push({ role: "next", address: computeAddress(config.nextSignerPrivateKey), status: "unverified" });
    this.active = this.keys[0];
    this.rpc = urlOrigin(config.rpcUrl);
    this.exchange = Exchange__factory.connect(config.deployment.exchange, provider);
  }

  /** The address vouchers are signed with now (the current key until the next one holds SIGNER_ROLE). */
  get signerAddress(): string {
    return this.active.address;
  }

  /** Which key signs now: "current" or "next". */
  get activeKey(): VoucherKey["role"] {
    return this.active.role;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The first check, shared by whoever needs it first (the indexer waits for it too); then the periodic ones. */
  start(): Promise<void> {
    this.firstCheck ??= (async () => {
      await this.refresh();
      // An unreachable node is no reason to stop: it may come up after the API (and /ready says so meanwhile). A node
      // that answers with the wrong chain, without the contracts, or without the signer's role is.
      if (this.reachable) {
        const problems = this.problems(true).filter((problem) => !(problem.field === "signer" && this.signerStatus() === "unverified"));
        if (problems.length > 0) throw new StartupError(problems.map((problem) => problem.message).join("; "));
      }
      const { deployment } = this.config;
      if (!this.keys.some((key) => key.address === deployment.signer)) {
        jsonLog("warn", "the deployment file names another signer than the voucher key; the chain's SIGNER_ROLE decides", {
          component: "chain",
          chainId: deployment.chainId,
          deploymentSigner: deployment.signer,
          signer: this.signerAddress,
        });
      }
      this.timer = setInterval(() => void this.refresh(), this.checkIntervalMs);
      this.timer.unref();
    })();
    return this.firstCheck;
  }

  /**
   * Whether a voucher key can sign: authorized while either key holds SIGNER_ROLE (a rotation never fails /ready or
   * signing), unauthorized when every key was checked and none holds it, unverified otherwise.
   */
  signerStatus(): SignerStatus {
    if (this.keys.some((key) => key.status === "authorized")) return "authorized";
    return this.keys.every((key) => key.status === "unauthorized") ? "unauthorized" : "unverified";
  }

  /**
   * For /ready: asks the node for its chain id and head now (at most PROBE_TIMEOUT_MS), and lists every chain-side
   * dependency that does not hold. A node that just came back gets its full check before the answer.
   */
  async probe(): Promise<{ head: number | null; problems: DependencyProblem[] }> {
    let head: number | null = null;
    try {
      const [chainId, blockNumber] = await withTimeout(Promise.all([this.chainId(), this.provider.getBlockNumber()]), PROBE_TIMEOUT_MS);
      const wasHealthy = this.reachable === true && this.servedChainId === this.config.deployment.chainId;
      this.observe(true, chainId);
      if (!wasHealthy || this.missingCode === null) await this.refresh();
      head = blockNumber;
    } catch (error) {
      this.observeFailure(error);
    }
    return { head, problems: this.problems() };
  }

  /**
   * Every chain-side dependency that does not hold, as it was last seen. `detailed` (the start-up error line) names the
   * node's scheme and host and its error; otherwise (/ready, which anyone may call) only the setting to check.
   */
  problems(detailed = false): DependencyProblem[] {
    const { deployment, settingName } = this.config;
    const rpcSetting = settingName("RPC_URL");
    const where = detailed ? `${rpcSetting} (${this.rpc})` : rpcSetting;
    const problems: DependencyProblem[] = [];
    if (this.reachable === false) {
      problems.push({
        field: "chain",
        message: detailed
          ? `the chain node at ${where} does not answer: ${this.unreachableReason}`
          : `the chain node at ${where} does not answer: check the node and ${rpcSetting} (the API log has the error)`,
      });
    } else if (this.servedChainId !== null && this.servedChainId !== deployment.chainId) {
      problems.push({
        field: "chain",
        message: wrongChainMessage({ setting: rpcSetting, shown: where }, this.servedChainId, deployment.chainId),
      });
    }
    if (this.missingCode && this.missingCode.length > 0) {
      const source = this.config.deploymentFile ? `${settingName("DEPLOYMENT_FILE")} ${this.config.deploymentFile}` : "the deployment";
      problems.push({
        field: "deployment",
        message: `${source} names contracts that have no code on chain ${deployment.chainId}: ${this.missingCode.join(", ")} (deployed to another chain, or the chain was reset?)`,
      });
    }
    const signer = this.signerStatus();
    if (signer === "unauthorized") {
      const keys = this.keys
        .map(
          (key) =>
            `${key.address} (${settingName(key.role === "current" ? "SIGNER_PRIVATE_KEY" : "SIGNER_NEXT_PRIVATE_KEY")} or ${settingName(key.role === "current" ? "SIGNER_KEYSTORE_FILE" : "SIGNER_NEXT_KEYSTORE_FILE")})`,
        )
        .join(" nor the next key ");
      problems.push({
        field: "signer",
        message: `the voucher key ${keys} does not hold SIGNER_ROLE on the Exchange ${deployment.exchange} of chain ${deployment.chainId}: grant it, or configure the key that holds it`,
      });
    } else if (signer === "unverified") {
      problems.push({
        field: "signer",
        message: `the voucher key's SIGNER_ROLE on the Exchange of chain ${deployment.chainId} is not verified yet: the chain node has not answered`,
      });
    }
    return problems;
  }

  /** One full check: chain id; then, on the right chain, the contracts' code (once per connection) and the role. */
  refresh(): Promise<void> {
    this.refreshing ??= this.checkAll().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  private async checkAll(): Promise<void> {
    try {
      this.observe(true, await this.chainId());
      if (this.servedChainId !== this.config.deployment.chainId) return;
      if (this.missingCode === null) this.observeCode(await this.contractsWithoutCode());
      if (this.missingCode!.includes(`exchange ${this.config.deployment.exchange}`)) return;
      const held = await Promise.all(this.keys.map((key) => this.exchange.hasRole(SIGNER_ROLE, key.address)));
      this.observeSigners(held.map((holds) => (holds ? "authorized" : "unauthorized")));
    } catch (error) {
      this.observeFailure(error);
    }
  }

  private chainId(): Promise<number> {
    return askServedChainId(this.provider);
  }

  private async contractsWithoutCode(): Promise<string[]> {
    const { deployment } = this.config;
    const codes = await Promise.all(DEPLOYED_CONTRACT_FIELDS.map((field) => this.provider.getCode(deployment[field])));
    return DEPLOYED_CONTRACT_FIELDS.filter((_, index) => codes[index] === "0x").map((field) => `${field} ${deployment[field]}`);
  }

  private observe(reachable: true, chainId: number): void {
    if (this.reachable !== true) {
      if (this.reachable === false)
        jsonLog("info", "chain node reachable again", { component: "chain", chainId: this.config.chainId, rpc: this.rpc });
      this.reachable = true;
    }
    const expected = this.config.deployment.chainId;
    if (chainId !== this.servedChainId) {
      if (chainId !== expected) {
        jsonLog("error", `${this.config.settingName("RPC_URL")} serves another chain than configured: fix it`, {
          component: "chain",
          rpc: this.rpc,
          servedChainId: chainId,
          chainId: expected,
        });
        // Whatever was verified was verified elsewhere.
        this.missingCode = null;
      } else if (this.servedChainId !== null) {
        jsonLog("info", `${this.config.settingName("RPC_URL")} serves the configured chain again`, { component: "chain", rpc: this.rpc, chainId });
      }
      this.servedChainId = chainId;
    }
  }

  private observeFailure(error: unknown): void {
    const reason = error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error);
    this.unreachableReason = reason.replace(this.config.rpcUrl, this.rpc);
    if (this.reachable !== false) {
      jsonLog("error", `chain node unreachable: check ${this.config.settingName("RPC_URL")} and the node`, {
        component: "chain",
        chainId: this.config.chainId,
        rpc: this.rpc,
        error: this.unreachableReason,
      });
    }
    this.reachable = false;
    // After a reconnect the node may be another one: check its contracts again.
    this.missingCode = null;
  }

  private observeCode(missing: string[]): void {
    if (missing.length > 0 && JSON.stringify(missing) !== JSON.stringify(this.missingCode)) {
      jsonLog("error", "deployment contracts have no code on the chain: fix the deployment file or the RPC URL", {
        component: "chain",
        chainId: this.config.chainId,
        deploymentFile: this.config.deploymentFile,
        missing,
      });
    }
    this.missingCode = missing;
  }

  /** Records each key's role and picks the key to sign with: the next one as soon as it holds the role. */
  private observeSigners(statuses: SignerStatus[]): void {
    const before = this.signerStatus();
    statuses.forEach((status, index) => (this.keys[index].status = status));
    const after = this.signerStatus();
    const fields = { component: "chain", chainId: this.config.chainId };
    if (after === "unauthorized" && before !== "unauthorized") {
      jsonLog("error", "the voucher key lacks SIGNER_ROLE on the Exchange: signing is refused until it holds it", {
        ...fields,
        signers: this.keys.map((key) => key.address),
        exchange: this.config.deployment.exchange,
      });
    } else if (after === "authorized" && before === "unauthorized") {
      jsonLog("info", "the voucher key holds SIGNER_ROLE again", {
        ...fields,
        signer: this.keys.find((key) => key.status === "authorized")!.address,
      });
    }
    const next = this.keys.find((key) => key.role === "next" && key.status === "authorized");
    const chosen = next ?? this.keys.find((key) => key.status === "authorized") ?? this.keys[0];
    if (chosen !== this.active) {
      jsonLog("info", `vouchers are now signed with the ${chosen.role} key: it holds SIGNER_ROLE`, {
        ...fields,
        signer: chosen.address,
        previous: this.active.address,
      });
      this.active = chosen;
    }
  }
}
