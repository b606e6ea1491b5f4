import { scope } from "hardhat/config";

import { compileOnce, friendly } from "./action";

/** The platform's factory settings: price tokens, the draw budget, randomness (VRF) and its subscription. */
const platform = scope("platform");

const load = async () => ({ ...(await import("./platform-context")), chain: await import("@raffle/chain"), ethers: await import("ethers") });

platform
  .task("allow-price-token", "Allow an ERC20 token as the price of new rounds (or stop allowing it with --disallow)")
  .addParam("token", "The ERC20 token's address")
  .addFlag("disallow", "Stop allowing it (rounds already started keep it)")
  .addOptionalParam("from", "Account to send from (default: the configured DEPLOYER key)")
  .setAction(
    friendly(async ({ token, disallow, from }: { token: string; disallow: boolean; from?: string }, hre) => {
      await compileOnce(hre);
      const { platformContext, requireRole, send, ethers } = await load();
      const ctx = await platformContext(hre, from);
      const address = ethers.getAddress(token);
      await requireRole(ctx, ctx.factory, "RaffleFactory", "DEFAULT_ADMIN_ROLE", await ctx.factory.DEFAULT_ADMIN_ROLE());
      await send(
        `${disallow ? "disallow" : "allow"} price token ${address}`,
        () => ctx.factory.setPriceToken.staticCall(address, !disallow),
        () => ctx.factory.setPriceToken(address, !disallow),
      );
    }),
  );

platform
  .task("set-draws-per-day", "Set how many VRF draws each merchant may have per UTC day")
  .addParam("draws", "Draws per merchant per day")
  .addOptionalParam("from", "Account to send from (default: the configured DEPLOYER key)")
  .setAction(
    friendly(async ({ draws, from }: { draws: string; from?: string }, hre) => {
      await compileOnce(hre);
      const { platformContext, requireRole, send } = await load();
      if (!/^[1-9][0-9]*$/.test(draws)) throw new Error(`--draws: "${draws}" is not a whole number of at least 1`);
      const ctx = await platformContext(hre, from);
      await requireRole(ctx, ctx.factory, "RaffleFactory", "DEFAULT_ADMIN_ROLE", await ctx.factory.DEFAULT_ADMIN_ROLE());
      await send(
        `set the draw budget to ${draws} a day`,
        () => ctx.factory.setDrawsPerDay.staticCall(draws),
        () => ctx.factory.setDrawsPerDay(draws),
      );
    }),
  );

platform
  .task(
    "propose-vrf-config",
    "Announce new VRF settings (any not given stay as they are); they apply after VRF_CONFIG_DELAY (2 days), or at once while no raffle exists",
  )
  .addOptionalParam("coordinator", "VRF v2.5 coordinator")
  .addOptionalParam("keyHash", "VRF key hash")
  .addOptionalParam("subscriptionId", "VRF subscription id (the factory must own it to add consumers)")
  .addOptionalParam("callbackGasLimit", "Gas for the VRF callback")
  .addOptionalParam("requestConfirmations", "Blocks the VRF waits")
  .addOptionalParam("randomnessTimeout", "Seconds without randomness before refunds open")
  .addOptionalParam("from", "Account to send from (default: the configured DEPLOYER key)")
  .setAction(
    friendly(async (args: Record<string, string | undefined>, hre) => {
      await compileOnce(hre);
      const { platformContext, requireRole, send, chain } = await load();
      const ctx = await platformContext(hre, args.from);
      const current = await ctx.factory.vrfConfig();
      // The same rules as a deployment: off local chains no mock-only placeholder, and the contracts' bounds.
      const settings = chain.resolvePlatformSettings(
        {
          signer: ctx.record.signer,
          vrfCoordinator: args.coordinator ?? current.coordinator,
          vrfKeyHash: args.keyHash ?? current.keyHash,
          vrfSubscriptionId: args.subscriptionId ?? current.subscriptionId.toString(),
          vrfCallbackGasLimit: args.callbackGasLimit ?? current.callbackGasLimit.toString(),
          vrfRequestConfirmations: args.requestConfirmations ?? current.requestConfirmations.toString(),
          vrfRandomnessTimeout: args.randomnessTimeout ?? current.randomnessTimeout.toString(),
        },
        { chainId: ctx.chainId, local: ctx.local },
      );
      const vrf = { ...settings.vrf, coordinator: settings.vrf.coordinator!, subscriptionId: settings.vrf.subscriptionId ?? 0n };
      await requireRole(ctx, ctx.factory, "RaffleFactory", "DEFAULT_ADMIN_ROLE", await ctx.factory.DEFAULT_ADMIN_ROLE());
      await send(
        "propose the VRF settings",
        () => ctx.factory.proposeVrfConfig.staticCall(vrf),
        () => ctx.factory.proposeVrfConfig(vrf),
      );
      const [, effectiveAt] = await ctx.factory.pendingVrfConfig();
      console.log(
        effectiveAt === 0n
          ? "applied at once (no raffle exists yet)"
          : `pending until ${new Date(Number(effectiveAt) * 1000).toISOString()}; then anyone runs \`platform apply-vrf-config\``,
      );
    }),
  );

platform
  .task("apply-vrf-config", "Apply the announced VRF settings once their notice has passed (anyone may)")
  .addOptionalParam("from", "Account to send from (default: the configured DEPLOYER key)")
  .setAction(
    friendly(async ({ from }: { from?: string }, hre) => {
      await compileOnce(hre);
      const { platformContext, send } = await load();
      const ctx = await platformContext(hre, from);
      const [, effectiveAt] = await ctx.factory.pendingVrfConfig();
      if (effectiveAt === 0n) throw new Error("no VRF settings are announced: nothing to apply");
      await send(
        "apply the announced VRF settings",
        () => ctx.factory.applyVrfConfig.staticCall(),
        () => ctx.factory.applyVrfConfig(),
      );
    }),
  );

platform
  .task("transfer-vrf-subscription", "Offer the factory's VRF subscription to a new owner, who accepts it on the coordinator")
  .addParam("to", "The new owner (a new factory, or the platform's treasury)")
  .addOptionalParam("from", "Account to send from (default: the configured DEPLOYER key)")
  .setAction(
    friendly(async ({ to, from }: { to: string; from?: string }, hre) => {
      await compileOnce(hre);
      const { platformContext, requireRole, send, ethers } = await load();
      const ctx = await platformContext(hre, from);
      const owner = ethers.getAddress(to);
      await requireRole(ctx, ctx.factory, "RaffleFactory", "DEFAULT_ADMIN_ROLE", await ctx.factory.DEFAULT_ADMIN_ROLE());
      const { coordinator, subscriptionId } = await ctx.factory.vrfConfig();
      await send(
        `offer VRF subscription ${subscriptionId} to ${owner}`,
        () => ctx.factory.transferVrfSubscription.staticCall(owner),
        () => ctx.factory.transferVrfSubscription(owner),
      );
      console.log(`${owner} now calls acceptSubscriptionOwnerTransfer(${subscriptionId}) on the coordinator ${coordinator}`);
    }),
  );

platform
  .task("fund-vrf-subscription", "Add native currency (ETH, POL) to the factory's VRF subscription; anyone may (LINK goes through vrf.chain.link)")
  .addParam("amount", "Amount in ether units, e.g. 0.5")
  .addOptionalParam("from", "Account to send from (default: the configured DEPLOYER key)")
  .setAction(
    friendly(async ({ amount, from }: { amount: string; from?: string }, hre) => {
      await compileOnce(hre);
      const { platformContext, send, chain, ethers } = await load();
      const ctx = await platformContext(hre, from);
      const value = ethers.parseEther(amount);
      const { coordinator, subscriptionId } = await ctx.factory.vrfConfig();
      const subscriptions = chain.IVRFSubscriptionV2Plus__factory.connect(coordinator, await hre.ethers.getSigner(ctx.from));
      await send(
        `fund VRF subscription ${subscriptionId} with ${amount}`,
        () => subscriptions.fundSubscriptionWithNative.staticCall(subscriptionId, { value }),
        () => subscriptions.fundSubscriptionWithNative(subscriptionId, { value }),
      );
      const { nativeBalance, balance } = await subscriptions.getSubscription(subscriptionId);
      console.log(`subscription ${subscriptionId}: ${ethers.formatEther(nativeBalance)} native, ${ethers.formatEther(balance)} LINK`);
    }),
  );
