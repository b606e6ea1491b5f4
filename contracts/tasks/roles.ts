import { scope } from "hardhat/config";

import { compileOnce, friendly } from "./action";

/** Who may do what on the platform: merchants, the voucher signer, the pause switch. */
const platform = scope("platform", "Deploy and administer the raffle platform");

const load = async () => ({ ...(await import("./platform-context")), ethers: await import("ethers") });

platform
  .task("grant-merchant", "Allow a merchant wallet to deploy raffles (MERCHANT_ROLE on the factory)")
  .addParam("merchant", "The merchant's wallet address")
  .addOptionalParam("from", "Account to send from (default: the configured DEPLOYER key)")
  .setAction(
    friendly(async ({ merchant, from }: { merchant: string; from?: string }, hre) => {
      await compileOnce(hre);
      const { platformContext, requireRole, refuseDevAccount, send, ethers } = await load();
      const ctx = await platformContext(hre, from);
      const account = ethers.getAddress(merchant);
      await refuseDevAccount(ctx, "merchant", account);
      await requireRole(ctx, ctx.factory, "RaffleFactory", "DEFAULT_ADMIN_ROLE", await ctx.factory.DEFAULT_ADMIN_ROLE());
      const role = await ctx.factory.MERCHANT_ROLE();
      if (await ctx.factory.hasRole(role, account)) return console.log(`${account} already holds MERCHANT_ROLE: nothing to do`);
      await send(
        `grant MERCHANT_ROLE to ${account}`,
        () => ctx.factory.grantRole.staticCall(role, account),
        () => ctx.factory.grantRole(role, account),
      );
    }),
  );

platform
  .task("revoke-merchant", "Stop a merchant wallet from deploying raffles (its existing raffles keep running)")
  .addParam("merchant", "The merchant's wallet address")
  .addOptionalParam("from", "Account to send from (default: the configured DEPLOYER key)")
  .setAction(
    friendly(async ({ merchant, from }: { merchant: string; from?: string }, hre) => {
      await compileOnce(hre);
      const { platformContext, requireRole, send, ethers } = await load();
      const ctx = await platformContext(hre, from);
      const account = ethers.getAddress(merchant);
      await requireRole(ctx, ctx.factory, "RaffleFactory", "DEFAULT_ADMIN_ROLE", await ctx.factory.DEFAULT_ADMIN_ROLE());
      const role = await ctx.factory.MERCHANT_ROLE();
      if (!(await ctx.factory.hasRole(role, account))) throw new Error(`${account} does not hold MERCHANT_ROLE: nothing to revoke`);
      await send(
        `revoke MERCHANT_ROLE from ${account}`,
        () => ctx.factory.revokeRole.staticCall(role, account),
        () => ctx.factory.revokeRole(role, account),
      );
    }),
  );

platform
  .task("rotate-signer", "Move SIGNER_ROLE on the Exchange from the current voucher signer to a new key, in one transaction")
  .addParam("newSigner", "Address of the API's new signing key")
  .addOptionalParam("oldSigner", "The signer to retire (default: the one in the deployment record)")
  .addOptionalParam("from", "Account to send from (default: the configured DEPLOYER key)")
  .setAction(
    friendly(async (args: { newSigner: string; oldSigner?: string; from?: string }, hre) => {
      await compileOnce(hre);
      const { platformContext, requireRole, refuseDevAccount, send, ethers } = await load();
      const { writeDeployment } = await import("@raffle/chain");
      const ctx = await platformContext(hre, args.from);
      const newSigner = ethers.getAddress(args.newSigner);
      const oldSigner = ethers.getAddress(args.oldSigner ?? ctx.record.signer);
      await refuseDevAccount(ctx, "the new signer", newSigner);
      await requireRole(ctx, ctx.exchange, "Exchange", "DEFAULT_ADMIN_ROLE", await ctx.exchange.DEFAULT_ADMIN_ROLE());
      const role = await ctx.exchange.SIGNER_ROLE();
      if (!(await ctx.exchange.hasRole(role, oldSigner)))
        throw new Error(`${oldSigner} does not hold SIGNER_ROLE: pass the current signer with --old-signer`);
      await send(
        `rotate SIGNER_ROLE from ${oldSigner} to ${newSigner}`,
        () => ctx.exchange.rotateSigner.staticCall(oldSigner, newSigner),
        () => ctx.exchange.rotateSigner(oldSigner, newSigner),
      );
      writeDeployment({ ...ctx.record, signer: newSigner });
      console.log("the deployment record names the new signer; restart the API with the new key");
    }),
  );

for (const [name, paused] of [
  ["pause", true],
  ["unpause", false],
] as const) {
  platform
    .task(name, paused ? "Stop purchases and claims on the Exchange (PAUSER_ROLE)" : "Resume purchases and claims on the Exchange (PAUSER_ROLE)")
    .addOptionalParam("from", "Account to send from (default: the configured DEPLOYER key)")
    .setAction(
      friendly(async ({ from }: { from?: string }, hre) => {
        await compileOnce(hre);
        const { platformContext, requireRole, send } = await load();
        const ctx = await platformContext(hre, from);
        await requireRole(ctx, ctx.exchange, "Exchange", "PAUSER_ROLE", await ctx.exchange.PAUSER_ROLE());
        if ((await ctx.exchange.paused()) === paused) return console.log(`the Exchange is already ${paused ? "paused" : "running"}: nothing to do`);
        const call = paused ? ctx.exchange.pause : ctx.exchange.unpause;
        await send(
          `${name} the Exchange ${ctx.record.exchange}`,
          () => call.staticCall(),
          () => call(),
        );
      }),
    );
}
