import { parseUnits } from "ethers";
import { Raffle__factory, RoundStatus } from "@raffle/chain";
import {
  buyTicket,
  buyTickets,
  deployTestRaffle,
  setUpWorld,
  startHardhatNode,
  type HardhatNode,
  type TestRaffle,
  type TestWorld,
} from "@raffle/chain/testing";

import { VrfFulfiller } from "../stack/vrf-fulfiller";

/** The local stack's VRF stand-in answers every open request, also a request id the mock reuses after evm_revert. */
describe("VRF stand-in", () => {
  let node: HardhatNode;
  let world: TestWorld;
  let raffle: TestRaffle;

  beforeAll(async () => {
    node = await startHardhatNode({ wallClock: true });
    world = await setUpWorld(node.provider);
    raffle = await deployTestRaffle(world, "ERC20");
    await buyTicket(world, raffle, world.players[0], 1n);
    await buyTicket(world, raffle, world.players[1], 1n);
  });

  afterAll(async () => {
    await node?.stop();
  });

  it("draws the round again after evm_revert, when the mock hands out the same request id", async () => {
    const onChain = Raffle__factory.connect(raffle.raffle, world.merchant);
    const fulfiller = new VrfFulfiller(world.deployment.vrfCoordinator, world.admin);
    await fulfiller.poll(); // reads the history so far: nothing to answer

    const snapshotId: string = await node.provider.send("evm_snapshot", []);
    await (await onChain.endRound()).wait();
    const firstRequest = (await onChain.getRound(1n)).vrfRequestId;
    expect(firstRequest).not.toBe(0n);
    await fulfiller.poll();
    expect((await onChain.getRound(1n)).winningTicketId).not.toBe(0n);

    // The draw is undone; the round is ended again and the mock reuses the request id.
    expect(await node.provider.send("evm_revert", [snapshotId])).toBe(true);
    expect((await onChain.getRound(1n)).winningTicketId).toBe(0n);
    await (await onChain.endRound()).wait();
    expect((await onChain.getRound(1n)).vrfRequestId).toBe(firstRequest);
    await fulfiller.poll();
    expect((await onChain.getRound(1n)).winningTicketId).not.toBe(0n);
    expect(fulfiller.fulfilledCount).toBe(2);

    // Nothing is answered twice on one branch.
    await fulfiller.poll();
    expect(fulfiller.fulfilledCount).toBe(2);
  });

  it("gives the callback its full gas limit: a three-winner round is drawn in the callback, not left to finishDraw", async () => {
    const rules = {
      prizeShares: [5_000, 3_000, 2_000],
      minTickets: 3,
      maxTicketsPerWallet: 0,
      bundles: [{ quantity: 5, price: parseUnits("45", 18) }],
    };
    const threeWinners = await deployTestRaffle(world, "ERC20", 100n, rules);
    await buyTickets(world, threeWinners, world.players[2], 5);
    const onChain = Raffle__factory.connect(threeWinners.raffle, world.merchant);
    await (await onChain.endRound()).wait();
    await new VrfFulfiller(world.deployment.vrfCoordinator, world.admin).poll();
    expect(Number((await onChain.getRound(1n)).status)).toBe(RoundStatus.Drawn);
    expect(await onChain.getWinners(1n)).toHaveLength(3);
  });

  it("keeps the chain's clock at wall time through hundreds of quick blocks (the local stack's node)", async () => {
    for (let i = 0; i < 700; i += 1) await node.provider.send("evm_mine", []);
    const latest = await node.provider.getBlock("latest");
    // Without wallClock, 700 blocks in a few seconds put the chain about 700 s ahead: a 600 s voucher would expire on arrival.
    expect(latest!.timestamp - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(5);
  });
});
