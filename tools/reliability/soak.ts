/**
 * The slow half of the reliability suite (`npm run test:reliability`): 60 s of mixed traffic at high concurrency
 * against the API in its own process, on a real chain and PostgreSQL. It proves: zero 5xx, zero duplicate nonces,
 * a valid signature in every sample, every signed voucher recorded, and stable memory. Prints a summary table and
 * exits non-zero when a case fails.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import { Wallet, getAddress, hexlify, randomBytes, verifyTypedData } from "ethers";
import { LOCAL_DEV_KEYS, PURCHASE_TYPES, exchangeDomain } from "@raffle/chain";
import { deployTestRaffle } from "@raffle/chain/testing";
import { openDatabase } from "@raffle/db";
import { ApiKeyService } from "@raffle/api";
import { startTestStack } from "@raffle/test-stack";

import { runLoad } from "../bench/load";
import { printResult } from "./result";

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const SIGN_CONNECTIONS = 48;
const say = (line: string) => process.stdout.write(`${line}\n`);

interface Case {
  case: string;
  tried: number;
  passed: number;
  detail: string;
}

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
}

async function main(): Promise<void> {
  say(`soak: ${SECONDS} s of mixed traffic on ${os.cpus().length} cores, Node ${process.version}`);
  const stack = await startTestStack({ label: "soak", node: "hardhat" });
  const { world, database } = stack;
  const raffle = await deployTestRaffle(world, "NATIVE", 0n);
  const keys = await openDatabase({ url: database.url, poolSize: 2 });
  const apiKey = (await new ApiKeyService(keys, { apiKeyCacheSeconds: 0 }).create(await world.merchant.getAddress())).key;
  const api = await stack.startApi({ LOG_LEVEL: "silent", RATE_LIMIT_SIGN_PER_KEY: "1000000000", RATE_LIMIT_SIGN_PER_ACCOUNT: "1000000000" });
  const apiPid = api.child.process.pid!;
  const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  const cases: Case[] = [];
  try {
    let contractId = 0;
    for (let i = 0; i < 240 && contractId === 0; i += 1) {
      const listed = (await (await fetch(`${api.url}/raffle/contracts?take=100`, { headers })).json()) as {
        rows?: Array<{ id: number; address: string }>;
      };
      contractId = listed.rows?.find((row) => row.address === raffle.raffle)?.id ?? 0;
      if (contractId === 0) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    if (contractId === 0) throw new Error("the API never listed the raffle");

    const accounts = Array.from({ length: 5_000 }, () => getAddress(hexlify(randomBytes(20))));
    const memory: number[] = [];
    const sampler = setInterval(() => memory.push(rssMiB(apiPid)), 1_000);

    const [sign, rounds, contracts] = await Promise.all([
      runLoad({
        url: `${api.url}/raffle/ticket/sign`,
        method: "POST",
        headers,
        connections: SIGN_CONNECTIONS,
        durationSeconds: SECONDS,
        bodies: accounts.map((account) => JSON.stringify({ account, contractId })),
        capture: '"nonce":"(0x[0-9a-f]{64})"',
        sampleEvery: 500,
      }),
      runLoad({ url: `${api.url}/rounds/current?contractId=${contractId}`, headers, connections: 24, durationSeconds: SECONDS }),
      runLoad({ url: `${api.url}/raffle/contracts?chainId=31337&take=25`, headers, connections: 24, durationSeconds: SECONDS }),
    ]);
    clearInterval(sampler);
    const signed = sign.captures.length;
    const nonces = new Map<string, number>();
    for (const nonce of sign.captures) nonces.set(nonce, (nonces.get(nonce) ?? 0) + 1);
    const samples = sign.samples.map(({ requestBody, responseBody }) => ({ account: JSON.parse(requestBody).account as string, body: responseBody }));

    const total = sign.requests + rounds.requests + contracts.requests;
    const failed = sign.non2xx + rounds.non2xx + contracts.non2xx + sign.errors + rounds.errors + contracts.errors;
    cases.push({
      case: "mixed traffic answered 2xx (no 5xx, no errors)",
      tried: total,
      passed: total - failed,
      detail: `${Math.round(total / SECONDS)} req/s`,
    });
    const duplicates = [...nonces.values()].filter((count) => count > 1).length;
    cases.push({ case: "distinct nonces among signed vouchers", tried: signed, passed: signed - duplicates, detail: `${duplicates} duplicates` });

    const signer = new Wallet(LOCAL_DEV_KEYS.voucherSigner).address;
    const domain = exchangeDomain(world.deployment.chainId, world.deployment.exchange);
    const valid = samples.filter(({ account, body }) => {
      const response = JSON.parse(body);
      return (
        verifyTypedData(
          domain,
          PURCHASE_TYPES,
          { account, params: response.params, item: response.item, price: response.price },
          response.signature,
        ) === signer
      );
    }).length;
    cases.push({ case: "sampled signatures recover to the signer", tried: samples.length, passed: valid, detail: "1 in 500" });

    const [{ recorded, distinct }] = await keys.query(`SELECT count(*)::int AS recorded, count(DISTINCT nonce)::int AS distinct FROM ticket_voucher`);
    // Requests still in flight when the load stops are answered and recorded, but not counted: at most one per connection.
    const recordedOnce = distinct === recorded && recorded >= signed && recorded <= signed + SIGN_CONNECTIONS;
    cases.push({
      case: "every signed voucher recorded once",
      tried: signed,
      passed: recordedOnce ? signed : 0,
      detail: `${recorded} rows, ${distinct} distinct nonces`,
    });

    const third = Math.max(1, Math.floor(memory.length / 3));
    const early = memory.slice(third, 2 * third).reduce((a, b) => a + b, 0) / third;
    const late = memory.slice(-third).reduce((a, b) => a + b, 0) / third;
    const growth = (late - early) / early;
    cases.push({
      case: "memory stable (last third vs middle third)",
      tried: 1,
      passed: growth < 0.25 ? 1 : 0,
      detail: `${early.toFixed(0)} → ${late.toFixed(0)} MiB (${(growth * 100).toFixed(1)}%)`,
    });
  } finally {
    await keys.destroy();
    await stack.close();
  }
  console.table(cases);
  const ok = cases.every((row) => row.tried > 0 && row.passed === row.tried);
  say(ok ? "soak: all cases passed" : "soak: FAILED");
  printResult("soak", cases.length, cases.filter((row) => row.tried > 0 && row.passed === row.tried).length);
  process.exit(ok ? 0 : 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`soak failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
