import { Wallet, toQuantity } from "ethers";
import { startHardhatNode, type HardhatNode } from "@raffle/chain/testing";
import { eventually, prometheusSample as sample } from "@raffle/testing";

import { startMerchantWorker, type RunningMerchantWorker } from "../src/bootstrap";
import { loadWorkerConfig } from "../src/config";
import type { HealthReport } from "../src/health-server";
import { startFakeApi, type FakeApi } from "./support/fake-api";
import { LogCapture } from "./support/log-capture";

const API_KEY = "rk_test_metricskey";

/**
 * The worker's operator view (issue #21): /metrics with the merchant's gas balance per chain and its threshold, the
 * low-balance warning, and /health answering 503 while the API or the chain's node cannot be reached.
 */
describe("merchant worker metrics and health", () => {
  let node: HardhatNode;
  let api: FakeApi;
  let running: RunningMerchantWorker;
  const logs = new LogCapture();
  // A fresh account: its balance starts at 0, below the threshold.
  const merchant = Wallet.createRandom();
  const base = () => `http://127.0.0.1:${running.healthPort}`;
  const metrics = async () => {
    const response = await fetch(`${base()}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };
  const health = async () => {
    const response = await fetch(`${base()}/health`);
    return { status: response.status, report: (await response.json()) as HealthReport };
  };

  beforeAll(async () => {
    node = await startHardhatNode();
    api = await startFakeApi({ apiKey: API_KEY });
    const config = loadWorkerConfig({
      API_URL: api.url,
      API_KEY,
      MERCHANT_PRIVATE_KEY: merchant.privateKey,
      RPC_URL: node.rpcUrl,
      HEALTH_PORT: "0",
      REFRESH_INTERVAL_SECONDS: "1",
      API_RETRY_MAX_DELAY_SECONDS: "1",
      LOW_GAS_BALANCE_ETH: "0.5",
      LOG_LEVEL: "debug",
    });
    running = await startMerchantWorker(config, { logSink: logs.sink });
  }, 60_000);

  let apiUp = true;
  let nodeUp = true;
  afterAll(async () => {
    await running?.stop();
    if (apiUp) await api?.close();
    if (nodeUp) await node?.stop();
  });

  it("shows the merchant's gas balance per chain against LOW_GAS_BALANCE_ETH, and warns once while it is low", async () => {
    const text = await eventually(async () => {
      const exposition = await metrics();
      expect(sample(exposition, "raffle_worker_gas_balance_wei", { chainId: "31337" })).toBe(0);
      return exposition;
    });
    expect(sample(text, "raffle_worker_gas_balance_threshold_wei")).toBe(5e17);
    expect(sample(text, "raffle_worker_chain_up", { chainId: "31337" })).toBe(1);
    expect(sample(text, "raffle_worker_api_up", { chainId: "31337" })).toBe(1);
    const low = logs.lines.filter((line) => String(line.message).startsWith("merchant gas balance low"));
    expect(low).toHaveLength(1);
    expect(low[0]).toMatchObject({ level: "warn", chainId: 31337, merchant: merchant.address, balanceWei: "0", thresholdWei: "500000000000000000" });
    expect(JSON.stringify(logs.lines)).not.toContain(merchant.privateKey.slice(2));

    await node.provider.send("hardhat_setBalance", [merchant.address, toQuantity(10n ** 18n)]);
    await eventually(async () => expect(sample(await metrics(), "raffle_worker_gas_balance_wei", { chainId: "31337" })).toBe(1e18));
    await eventually(async () => expect(logs.messages("info")).toContain("merchant gas balance back above LOW_GAS_BALANCE_ETH"));
    // Still one warning: later probes of a low balance do not repeat it.
    expect(logs.lines.filter((line) => String(line.message).startsWith("merchant gas balance low"))).toHaveLength(1);
    expect(await health()).toMatchObject({ status: 200, report: { status: "ok" } });
  });

  it("answers /health with 503 while the API is unreachable, then while the chain's node is", async () => {
    await api.close();
    apiUp = false;
    const apiDown = await eventually(async () => {
      const answer = await health();
      expect(answer.status).toBe(503);
      return answer.report;
    }, 20_000);
    expect(apiDown.status).toBe("unavailable");
    expect(apiDown.chains[0]).toMatchObject({ chainId: 31337, reachable: true, lastRefresh: { ok: false } });
    expect(sample(await metrics(), "raffle_worker_api_up", { chainId: "31337" })).toBe(0);

    await node.stop();
    nodeUp = false;
    const nodeDown = await eventually(async () => {
      const answer = await health();
      expect(answer.report.chains[0].reachable).toBe(false);
      return answer;
    }, 20_000);
    expect(nodeDown).toMatchObject({ status: 503, report: { status: "unavailable" } });
    expect(sample(await metrics(), "raffle_worker_chain_up", { chainId: "31337" })).toBe(0);
  });
});
