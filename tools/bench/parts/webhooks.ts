/**
 * Part "webhooks": the sign load while the API's delivery loops send a webhook backlog (8 endpoints), in runs that
 * take turns with runs on an idle outbox, so the machine's drift falls on both alike.
 */
import { apiCpuPerRequest, figuresOf, type MeasuredLoad } from "../load";
import { SIGN_CONNECTIONS, SIGN_RUNS, SIGN_SECONDS, medianRun } from "../settings";
import { randomAccounts, signLoad, type BenchStack } from "../stack";
import { startWebhookLoad } from "../webhook-load";

export async function webhooksPart(stack: BenchStack): Promise<void> {
  const { api, results, rows } = stack;
  const accounts = randomAccounts();
  const webhooks = await startWebhookLoad(stack.keyDataSource, api.url, stack.auth, 8);
  const withRuns: MeasuredLoad[] = [];
  const withoutRuns: MeasuredLoad[] = [];
  let deliveredDuringRuns = 0;
  try {
    for (let run = 0; run < SIGN_RUNS; run += 1) {
      withoutRuns.push(await signLoad(stack, accounts, SIGN_CONNECTIONS, api, "webhooks idle"));
      await webhooks.fill(20_000);
      const deliveredBefore = webhooks.delivered();
      withRuns.push(await signLoad(stack, accounts, SIGN_CONNECTIONS, api, "webhooks delivering"));
      deliveredDuringRuns += webhooks.delivered() - deliveredBefore;
      await webhooks.clear();
    }
  } finally {
    await webhooks.stop();
  }
  const [withWebhooks, withoutWebhooks] = [medianRun(withRuns), medianRun(withoutRuns)];
  const deliveriesPerSecond = Math.round(deliveredDuringRuns / (SIGN_SECONDS * SIGN_RUNS));
  const ratio = withWebhooks.requestsPerSecond / Math.max(withoutWebhooks.requestsPerSecond, 1);
  // The delivery work is the API's own CPU: per sign request, it shows as the difference of the two.
  const [cpuWith, cpuWithout] = [apiCpuPerRequest(withRuns), apiCpuPerRequest(withoutRuns)];
  const cpuCostPercent = (cpuWith / cpuWithout - 1) * 100;
  results.signWithWebhooks = {
    with: withRuns.map(figuresOf),
    without: withoutRuns.map(figuresOf),
    ratioToWithout: Number(ratio.toFixed(3)),
    apiCpuMicrosPerRequest: { with: Math.round(cpuWith), without: Math.round(cpuWithout) },
    cpuCostPercent: Math.round(cpuCostPercent * 10) / 10,
    deliveriesPerSecond,
  };
  rows.push(
    {
      measure: `sign with webhooks delivering (${deliveriesPerSecond} deliveries/s) vs idle (alternating, median of ${SIGN_RUNS}): req/s`,
      result: `${withWebhooks.requestsPerSecond} vs ${withoutWebhooks.requestsPerSecond} (${(ratio * 100).toFixed(0)}%)`,
      target: "",
      met: null,
    },
    {
      measure: "sign with webhooks delivering vs idle: API CPU per sign request, deliveries included",
      result: `${cpuWith.toFixed(0)} vs ${cpuWithout.toFixed(0)} µs (${cpuCostPercent >= 0 ? "+" : ""}${cpuCostPercent.toFixed(1)}%)`,
      target: "<= +10% (sign within 10%)",
      met: cpuCostPercent <= 10 && deliveriesPerSecond > 0,
    },
  );
}
