/**
 * Reliability: the voucher key rotated under sign load (issue 31). The compiled API holds the current key and the
 * next one (SIGNER_NEXT_PRIVATE_KEY); while 16 connections ask for vouchers without a pause, the admin grants the next
 * key SIGNER_ROLE, the API switches to it by itself, and once the longest voucher lifetime (SIGNATURE_TTL_SECONDS) and
 * a chain check have passed since the grant, the old key is revoked (the `signer revoke-old` rule). Every request must
 * succeed, /ready must stay 200, and the Exchange must accept every voucher checked: a sample during the load (an
 * eth_call of purchaseRaffle by the voucher's buyer while the voucher is valid), and right after the revoke every
 * voucher that has not expired yet — the ones the revoke could have broken.
 */
import { Exchange__factory, buildPurchaseArgs } from "@raffle/chain";
import { deployTestRaffle } from "@raffle/chain/testing";
import { openDatabase } from "@raffle/db";
import { ApiKeyService, CHAIN_CHECK_INTERVAL_SECONDS } from "@raffle/api";
import { startTestStack } from "@raffle/test-stack";
import { Wallet, id } from "ethers";

import { printResult } from "./result";

const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const CONNECTIONS = 16;
const SIGNATURE_TTL_SECONDS = 10;
const SIGNER_ROLE = id("SIGNER_ROLE");

interface Voucher {
  signedAt: number;
  account: string;
  args: ReturnType<typeof buildPurchaseArgs>;
}

async function main(): Promise<void> {
  // The chain's clock at wall time, by which the API dates vouchers (by default Hardhat adds a second per block, and the
  // set-up's blocks would put it ahead: 10 s vouchers would be born expired).
  const stack = await startTestStack({ label: "reliability_signer_rotation", node: "hardhat", wallClock: true });
  const { node, world, database } = stack;
  const raffle = await deployTestRaffle(world, "NATIVE", 0n);
  const keys = await openDatabase({ url: database.url, poolSize: 1 });
  const apiKey = (await new ApiKeyService(keys, { apiKeyCacheSeconds: 0 }).create(await world.merchant.getAddress())).key;
  await keys.destroy();
  const next = Wallet.createRandom();
  const api = await stack.startApi({
    LOG_LEVEL: "silent",
    SIGNER_NEXT_PRIVATE_KEY: next.privateKey,
    SIGNATURE_TTL_SECONDS: String(SIGNATURE_TTL_SECONDS),
    RATE_LIMIT_SIGN_PER_ACCOUNT: "10000000",
  });
  const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  const rows: Array<{ case: string; figure: string; ok: boolean }> = [];
  const exchange = Exchange__factory.connect(world.deployment.exchange, node.provider);
  // Funded accounts of the node (the players are 5 to 8): a buyer must pay the price in its eth_call.
  const buyers = await Promise.all([10, 11, 12, 13, 14, 15, 16, 17].map(async (index) => (await node.provider.getSigner(index)).getAddress()));
  try {
    let contractId = 0;
    for (let i = 0; i < 240 && contractId === 0; i += 1) {
      const listed = (await (await fetch(`${api.url}/raffle/contracts?take=100`, { headers })).json()) as {
        rows?: Array<{ id: number; address: string }>;
      };
      contractId = listed.rows?.find((row) => row.address === raffle.raffle)?.id ?? 0;
      if (contractId === 0) await sleep(250);
    }
    if (contractId === 0) throw new Error("the API never listed the raffle");
    let round: Parameters<typeof buildPurchaseArgs>[0] | undefined;
    for (let i = 0; i < 240 && !round; i += 1) {
      const answer = await fetch(`${api.url}/rounds/current?contractId=${contractId}`, { headers });
      if (answer.ok) round = (await answer.json()) as Parameters<typeof buildPurchaseArgs>[0];
      else await sleep(250);
    }
    if (!round) throw new Error("the API never showed the current round");

    const readySigner = async (): Promise<{ status: number; address?: string }> => {
      const answer = await fetch(`${api.url}/ready`).catch(() => null);
      if (!answer) return { status: 0 };
      const body = (await answer.json()) as { chains?: Array<{ signer: { address: string } }> };
      return { status: answer.status, address: body.chains?.[0]?.signer.address };
    };

    // The load: CONNECTIONS loops asking for vouchers back to back, and /ready polled every 250 ms.
    let running = true;
    const statuses = new Map<number, number>();
    const vouchers: Voucher[] = [];
    const readyStatuses = new Map<number, number>();
    const loops = Array.from({ length: CONNECTIONS }, async (_, loop) => {
      for (let i = 0; running; i += 1) {
        const account = buyers[(loop + i) % buyers.length];
        const answer = await fetch(`${api.url}/raffle/ticket/sign`, {
          method: "POST",
          headers,
          body: JSON.stringify({ account, contractId }),
          signal: AbortSignal.timeout(10_000),
        }).catch(() => null);
        const status = answer?.status ?? 0;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status === 200)
          vouchers.push({
            signedAt: Date.now(),
            account,
            args: buildPurchaseArgs(round!, (await answer!.json()) as Parameters<typeof buildPurchaseArgs>[1]),
          });
      }
    });
    const readyLoop = (async () => {
      while (running) {
        const { status } = await readySigner();
        readyStatuses.set(status, (readyStatuses.get(status) ?? 0) + 1);
        await sleep(250);
      }
    })();

    // A sample during the load: the newest voucher, every 100 ms, checked by the Exchange while it is valid.
    const sampleRefusals: string[] = [];
    const revokeRefusals: string[] = [];
    let sampled = 0;
    const accepts = async (voucher: Voucher, refused: string[]): Promise<void> => {
      const { params, item, price, signature, value } = voucher.args;
      try {
        await exchange.purchaseRaffle.staticCall(params, item, price, signature, { from: voucher.account, value });
      } catch (error) {
        const revert = (error as { revert?: { name: string } }).revert;
        refused.push(revert?.name ?? (error as Error).message.slice(0, 120));
      }
    };
    const sampler = (async () => {
      while (running) {
        const newest = vouchers.at(-1);
        if (newest) {
          sampled += 1;
          await accepts(newest, sampleRefusals);
        }
        await sleep(100);
      }
    })();

    await sleep(3_000);
    const admin = Exchange__factory.connect(world.deployment.exchange, world.admin);
    const current = (await readySigner()).address!;
    say(`granting SIGNER_ROLE to the next key ${next.address} under load (current key ${current})`);
    const grantedAt = Date.now();
    await (await admin.grantRole(SIGNER_ROLE, next.address)).wait();
    let switchedAfterMs = -1;
    while (Date.now() - grantedAt < 30_000) {
      if ((await readySigner()).address === next.address) {
        switchedAfterMs = Date.now() - grantedAt;
        break;
      }
      await sleep(50);
    }
    say(`the API signs with the next key ${switchedAfterMs} ms after the grant`);
    // The `signer revoke-old` rule: the longest voucher lifetime plus one chain check after the grant.
    await sleep(Math.max(0, grantedAt + (SIGNATURE_TTL_SECONDS + CHAIN_CHECK_INTERVAL_SECONDS) * 1000 + 500 - Date.now()));
    say(`revoking the old key ${current}`);
    await (await admin.revokeRole(SIGNER_ROLE, current)).wait();
    const revokeBlock = await node.provider.getBlock("latest");
    const unexpired = vouchers.filter((voucher) => BigInt(voucher.args.params.expiresAt) > BigInt(revokeBlock!.timestamp));
    for (let i = 0; i < unexpired.length; i += 8) await Promise.all(unexpired.slice(i, i + 8).map((voucher) => accepts(voucher, revokeRefusals)));
    await sleep(3_000);
    running = false;
    await Promise.all([...loops, readyLoop, sampler]);

    const requests = [...statuses.values()].reduce((sum, count) => sum + count, 0);
    const signedBefore = vouchers.filter((voucher) => voucher.signedAt < grantedAt).length;
    rows.push({
      case: "every sign request answered 200",
      figure: `${statuses.get(200) ?? 0} of ${requests}: ${JSON.stringify(Object.fromEntries(statuses))}`,
      ok: (statuses.get(200) ?? 0) === requests && requests > 0,
    });
    rows.push({
      case: "/ready 200 throughout",
      figure: JSON.stringify(Object.fromEntries(readyStatuses)),
      ok: [...readyStatuses.keys()].every((status) => status === 200),
    });
    rows.push({
      case: "the API switched to the next key after the grant",
      figure: `${switchedAfterMs} ms`,
      ok: switchedAfterMs >= 0 && switchedAfterMs <= (CHAIN_CHECK_INTERVAL_SECONDS + 3) * 1000,
    });
    rows.push({
      case: "vouchers sampled during the load accepted by the Exchange",
      figure: `${sampled - sampleRefusals.length} of ${sampled}`,
      ok: sampled > 0 && sampleRefusals.length === 0,
    });
    rows.push({
      case: "after the revoke, every unexpired voucher accepted",
      figure: `${unexpired.length - revokeRefusals.length} of ${unexpired.length}`,
      ok: unexpired.length > 0 && revokeRefusals.length === 0,
    });
    rows.push({
      case: "vouchers of both keys handed out",
      figure: `${signedBefore} before the grant, ${vouchers.length - signedBefore} after`,
      ok: signedBefore > 0 && vouchers.length > signedBefore,
    });
    const refused = [...sampleRefusals, ...revokeRefusals];
    if (refused.length > 0) say(`refused: ${[...new Set(refused)].join(", ")}`);
  } finally {
    await stack.close();
  }
  console.table(rows);
  const ok = rows.every((row) => row.ok);
  say(ok ? "signer rotation: all cases passed" : "signer rotation: FAILED");
  printResult("signer rotation", rows.length, rows.filter((row) => row.ok).length);
  process.exit(ok ? 0 : 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`signer rotation failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
