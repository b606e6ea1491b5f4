/**
 * Part "webhooks": first the delivery throughput on its own (a backlog of 8 endpoints drained by the idle API to a
 * local receiver), then the sign load while the API's delivery loops send a backlog, in runs that take turns with
 * runs on an idle outbox, so the machine's drift falls on both alike.
 */
import { apiCpuPerRequest, figuresOf, type MeasuredLoad } from "../load";
import { SIGN_CONNECTIONS, SIGN_RUNS, SIGN_SECONDS, medianRun, say, sleep } from "../settings";
import { randomAccounts, signLoad, type BenchStack } from "../stack";
import { startWebhookLoad, type WebhookLoad } from "../webhook-load";

/** Messages per endpoint of the throughput measure: 8 endpoints, 20,000 messages. */
const THROUGHPUT_MESSAGES_PER_ENDPOINT = 2_500;
const THROUGHPUT_TARGET_PER_SECOND = 1_000;

export async function webhooksPart(stack: BenchStack): Promise<void> {
  const { api, results, rows } = stack;
  const accounts = randomAccounts();
  const webhooks = await startWebhookLoad(stack.keyDataSource, api.url, stack.auth, 8);
  try {
    await measureThroughput(stack, webhooks);
  } catch (error) {
    await webhooks.stop();
    throw error;
  }
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

/**
 * How fast the idle API drains a backlog: THROUGHPUT_MESSAGES_PER_ENDPOINT messages for each of the 8 endpoints,
 * from the moment they are committed to the outbox until the receiver has answered the last, and the API's CPU per message.
 */
async function measureThroughput(stack: BenchStack, webhooks: WebhookLoad): Promise<void> {
  const total = THROUGHPUT_MESSAGES_PER_ENDPOINT * 8;
  say(`1c. webhook delivery throughput: ${total} messages to 8 endpoints on a local receiver, the API otherwise idle`);
  const deliveredBefore = webhooks.delivered();
  // Timed from the commit of the one statement that queues them all: deliveries can only start then.
  await webhooks.fill(THROUGHPUT_MESSAGES_PER_ENDPOINT);
  const cpuBefore = stack.api.cpuSeconds();
  const started = process.hrtime.bigint();
  const deadline = Date.now() + 120_000;
  while (webhooks.delivered() - deliveredBefore < total && Date.now() < deadline) await sleep(5);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const delivered = webhooks.delivered() - deliveredBefore;
  const cpuMicrosPerMessage = ((stack.api.cpuSeconds() - cpuBefore) * 1e6) / Math.max(delivered, 1);
  await webhooks.clear();
  const perSecond = delivered / seconds;
  stack.results.webhookThroughput = {
    messages: total,
    delivered,
    seconds: Number(seconds.toFixed(2)),
    perSecond: Math.round(perSecond),
    cpuMicrosPerMessage: Math.round(cpuMicrosPerMessage),
  };
  stack.rows.push(
    {
      measure: `webhook delivery throughput, 8 endpoints, ${total} messages queued at once, local receiver (API otherwise idle)`,
      result: `${Math.round(perSecond)} messages/s (${delivered} in ${seconds.toFixed(1)} s)`,
      target: `>= ${THROUGHPUT_TARGET_PER_SECOND} messages/s`,
      met: delivered === total && perSecond >= THROUGHPUT_TARGET_PER_SECOND,
    },
    {
      measure: "webhook delivery: API CPU per message delivered (all processes)",
      result: `${cpuMicrosPerMessage.toFixed(0)} µs`,
      target: "",
      met: null,
    },
  );
}
