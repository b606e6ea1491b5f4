import { scope } from "hardhat/config";

import { compileOnce, friendly } from "./action";
import type { PlatformContext as Context } from "./platform-context";

/**
 * Rotating the API's voucher key without downtime (issue 31). The API holds the current key and the next one
 * (SIGNER_NEXT_PRIVATE_KEY or SIGNER_NEXT_KEYSTORE_FILE) and signs with the next as soon as it holds SIGNER_ROLE:
 *
 *   1. `signer grant-next --next <address>`   both keys hold the role; every replica switches within its chain check
 *   2. `signer switch --next <address>`       nothing on chain: checks the grant and says when the old key may go
 *   3. `signer revoke-old --old <address> --next <address>`
 *                                             only once every voucher the old key signed has expired
 *
 * Vouchers signed with the old key stay valid until step 3, which is refused before the longest voucher lifetime
 * (the API's SIGNATURE_TTL_SECONDS) plus one chain check (CHAIN_CHECK_INTERVAL_SECONDS) has passed since the grant.
 */
const signer = scope("signer", "Rotate the API's voucher key (SIGNER_ROLE on the Exchange) without downtime");

const load = async () => ({ ...(await import("./platform-context")), ethers: await import("ethers") });

/** The API's defaults: SIGNATURE_TTL_SECONDS and CHAIN_CHECK_INTERVAL_SECONDS. */
const DEFAULT_VOUCHER_LIFETIME_SECONDS = "600";
const DEFAULT_CHECK_INTERVAL_SECONDS = "15";

function seconds(raw: string, name: string): number {
  if (!/^\d{1,9}$/.test(raw)) throw new Error(`--${name}: "${raw}" is not a whole number of seconds`);
  return Number(raw);
}

/** When `next` was last granted SIGNER_ROLE (chain time, seconds), from the Exchange's RoleGranted events; null if never. */
async function grantedAt(ctx: Context, role: string, next: string): Promise<number | null> {
  const events = await ctx.exchange.queryFilter(ctx.exchange.filters.RoleGranted(role, next), ctx.record.deployBlock);
  const last = events.at(-1);
  if (!last) return null;
  const block = await ctx.hre.ethers.provider.getBlock(last.blockNumber);
  return block!.timestamp;
}

async function chainTime(ctx: Context): Promise<number> {
  return (await ctx.hre.ethers.provider.getBlock("latest"))!.timestamp;
}

signer
  .task("grant-next", "Step 1: grant SIGNER_ROLE to the next key, beside the current one (the API switches to it by itself)")
  .addParam("next", "Address of the next key (the API's SIGNER_NEXT_PRIVATE_KEY or SIGNER_NEXT_KEYSTORE_FILE)")
  .addOptionalParam("from", "Account to send from (default: the configured DEPLOYER key)")
  .setAction(
    friendly(async (args: { next: string; from?: string }, hre) => {
      await compileOnce(hre);
      const { platformContext, requireRole, refuseDevAccount, send, ethers } = await load();
      const ctx = await platformContext(hre, args.from);
      const next = ethers.getAddress(args.next);
      await refuseDevAccount(ctx, "the next signer", next);
      await requireRole(ctx, ctx.exchange, "Exchange", "DEFAULT_ADMIN_ROLE", await ctx.exchange.DEFAULT_ADMIN_ROLE());
      const role = await ctx.exchange.SIGNER_ROLE();
      if (await ctx.exchange.hasRole(role, next)) return console.log(`${next} already holds SIGNER_ROLE: nothing to do`);
      await send(
        `grant SIGNER_ROLE to the next key ${next}`,
        () => ctx.exchange.grantRole.staticCall(role, next),
        () => ctx.exchange.grantRole(role, next),
      );
      console.log(
        "every API replica configured with this key as SIGNER_NEXT_... signs with it within CHAIN_CHECK_INTERVAL_SECONDS; " +
          "`npx hardhat signer switch` says when the old key may be revoked",
      );
    }),
  );

signer
  .task("switch", "Step 2: nothing on chain; checks that the next key holds SIGNER_ROLE and says when the old key may be revoked")
  .addParam("next", "Address of the next key")
  .addOptionalParam("voucherLifetime", "The API's SIGNATURE_TTL_SECONDS (the longest voucher lifetime)", DEFAULT_VOUCHER_LIFETIME_SECONDS)
  .addOptionalParam("checkInterval", "The API's CHAIN_CHECK_INTERVAL_SECONDS", DEFAULT_CHECK_INTERVAL_SECONDS)
  .setAction(
    friendly(async (args: { next: string; voucherLifetime: string; checkInterval: string }, hre) => {
      await compileOnce(hre);
      const { platformContext, ethers } = await load();
      const ctx = await platformContext(hre);
      const next = ethers.getAddress(args.next);
      const role = await ctx.exchange.SIGNER_ROLE();
      if (!(await ctx.exchange.hasRole(role, next)))
        throw new Error(`${next} does not hold SIGNER_ROLE: run \`signer grant-next --next ${next}\` first`);
      const since = await grantedAt(ctx, role, next);
      const wait = seconds(args.voucherLifetime, "voucher-lifetime") + seconds(args.checkInterval, "check-interval");
      const revocableAt = (since ?? 0) + wait;
      const left = Math.max(0, revocableAt - (await chainTime(ctx)));
      console.log(
        `the API signs with ${next} (it holds SIGNER_ROLE; /ready's chains[].signer.address shows it per replica); ` +
          (left === 0
            ? "every voucher of the old key has expired: run `signer revoke-old` now"
            : `the old key's vouchers expire by ${new Date(revocableAt * 1000).toISOString()} (in ${left} s): revoke it after that`),
      );
    }),
  );

signer
  .task("revoke-old", "Step 3: revoke SIGNER_ROLE from the old key, once every voucher it signed has expired")
  .addParam("old", "Address of the key to retire")
  .addParam("next", "Address of the key that signs now (must hold SIGNER_ROLE)")
  .addOptionalParam("voucherLifetime", "The API's SIGNATURE_TTL_SECONDS (the longest voucher lifetime)", DEFAULT_VOUCHER_LIFETIME_SECONDS)
  .addOptionalParam("checkInterval", "The API's CHAIN_CHECK_INTERVAL_SECONDS", DEFAULT_CHECK_INTERVAL_SECONDS)
  .addOptionalParam("from", "Account to send from (default: the configured DEPLOYER key)")
  .setAction(
    friendly(async (args: { old: string; next: string; voucherLifetime: string; checkInterval: string; from?: string }, hre) => {
      await compileOnce(hre);
      const { platformContext, requireRole, send, ethers } = await load();
      const { writeDeployment } = await import("@raffle/chain");
      const ctx = await platformContext(hre, args.from);
      const old = ethers.getAddress(args.old);
      const next = ethers.getAddress(args.next);
      if (old === next) throw new Error("--old and --next are the same key");
      await requireRole(ctx, ctx.exchange, "Exchange", "DEFAULT_ADMIN_ROLE", await ctx.exchange.DEFAULT_ADMIN_ROLE());
      const role = await ctx.exchange.SIGNER_ROLE();
      if (!(await ctx.exchange.hasRole(role, old))) throw new Error(`${old} does not hold SIGNER_ROLE: nothing to revoke`);
      // Revoking before the next key signs would stop signing on every replica.
      if (!(await ctx.exchange.hasRole(role, next)))
        throw new Error(`${next} does not hold SIGNER_ROLE: run \`signer grant-next --next ${next}\` first`);
      const since = await grantedAt(ctx, role, next);
      const wait = seconds(args.voucherLifetime, "voucher-lifetime") + seconds(args.checkInterval, "check-interval");
      const left = since === null ? wait : since + wait - (await chainTime(ctx));
      if (left > 0) {
        throw new Error(
          `too early: vouchers the old key signed until the API switched may be valid for ${left} s more ` +
            `(granted at ${since === null ? "an unknown time" : new Date(since * 1000).toISOString()}, + ${wait} s): revoking now would make the Exchange refuse them`,
        );
      }
      await send(
        `revoke SIGNER_ROLE from the old key ${old}`,
        () => ctx.exchange.revokeRole.staticCall(role, old),
        () => ctx.exchange.revokeRole(role, old),
      );
      if (ctx.record.signer === old) writeDeployment({ ...ctx.record, signer: next });
      console.log("the deployment record names the new signer; at the next restart, move the key from SIGNER_NEXT_... to SIGNER_...");
    }),
  );
