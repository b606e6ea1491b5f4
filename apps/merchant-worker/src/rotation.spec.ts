import { isRetryable } from "@raffle/config";

import { FakeRaffle } from "../test/support/fake-raffle";
import { LogCapture } from "../test/support/log-capture";
import { MissingRoleError } from "./errors";
import { WorkerLogger } from "./logger";
import { FINISH_DRAW_LOOKBACK, FIRST_ROUND_HINT, finishPendingDraws, rotateRound } from "./rotation";

function setUp() {
  const raffle = new FakeRaffle();
  const logs = new LogCapture();
  const logger = new WorkerLogger({ level: "debug", sink: logs.sink });
  return { raffle, logs, logger };
}

describe("rotateRound", () => {
  it("does nothing on roundId 0 and says how to start the first round", async () => {
    const { raffle, logs, logger } = setUp();
    const port = raffle.port();
    const outcome = await rotateRound(port, { logger });
    expect(outcome).toEqual({ status: "noRound", roundId: 0n, txHashes: [] });
    expect(port.calls).toEqual(["readRound"]);
    expect(logs.messages("info")).toContain(FIRST_ROUND_HINT);
  });

  it("ends the active round, then starts the next, simulating each call and re-reading before each step", async () => {
    const { raffle, logger } = setUp();
    raffle.startFirstRound();
    const port = raffle.port();
    const outcome = await rotateRound(port, { logger });
    expect(outcome.status).toBe("rotated");
    expect(outcome.roundId).toBe(1n);
    expect(outcome.newRoundId).toBe(2n);
    expect(outcome.txHashes).toHaveLength(2);
    expect(port.calls).toEqual(["readRound", "simulateEndRound", "endRound", "readRound", "simulateStartRound", "startRound"]);
    expect(raffle.ended).toEqual([1n]);
    expect(raffle.started).toEqual([1n, 2n]);
  });

  it("only starts the next round when the round is already ended", async () => {
    const { raffle, logger } = setUp();
    raffle.startFirstRound();
    raffle.end("merchant");
    const port = raffle.port();
    const outcome = await rotateRound(port, { logger });
    expect(outcome).toMatchObject({ status: "rotated", roundId: 1n, newRoundId: 2n });
    expect(port.calls).not.toContain("endRound");
    expect(raffle.ended).toEqual([1n]);
  });

  it("finishes a rotation that crashed after endRound without a second endRound", async () => {
    const { raffle, logger } = setUp();
    raffle.startFirstRound();
    await expect(
      rotateRound(raffle.port(), {
        logger,
        hooks: {
          afterEndRound: () => {
            throw new Error("injected crash");
          },
        },
      }),
    ).rejects.toThrow("injected crash");
    expect(raffle.ended).toEqual([1n]);
    expect(raffle.started).toEqual([1n]);

    const rerun = raffle.port();
    const outcome = await rotateRound(rerun, { logger });
    expect(outcome).toMatchObject({ status: "rotated", roundId: 1n, newRoundId: 2n });
    expect(rerun.calls).not.toContain("endRound");
    expect(raffle.ended).toEqual([1n]);
    expect(raffle.started).toEqual([1n, 2n]);
  });

  it("keeps the hashes of the transactions mined before a failure", async () => {
    const { raffle, logger } = setUp();
    raffle.startFirstRound();
    const txHashes: string[] = [];
    const port = raffle.port("merchant", {
      startRound: async () => {
        throw new Error("RPC down");
      },
    });
    await expect(rotateRound(port, { logger, txHashes })).rejects.toThrow("RPC down");
    expect(txHashes).toHaveLength(1);
  });

  it("treats NoActiveRound at endRound's simulation as done elsewhere and goes on with startRound", async () => {
    const { raffle, logger } = setUp();
    raffle.startFirstRound();
    const other = raffle.port("merchant");
    // Another instance ends the round between this run's read and its simulation.
    const port = raffle.port("merchant", {
      simulateEndRound: async () => {
        raffle.end("merchant");
        await other.simulateEndRound();
      },
    });
    const outcome = await rotateRound(port, { logger });
    expect(outcome).toMatchObject({ status: "rotated", roundId: 1n, newRoundId: 2n });
    expect(raffle.ended).toEqual([1n]);
    expect(raffle.started).toEqual([1n, 2n]);
  });

  it("stops as a no-op when another instance started the next round meanwhile (RoundStillActive)", async () => {
    const { raffle, logger } = setUp();
    raffle.startFirstRound();
    raffle.end("merchant");
    const port = raffle.port("merchant", {
      simulateStartRound: async () => {
        raffle.start("merchant");
        raffle.checkStart("merchant");
      },
    });
    const outcome = await rotateRound(port, { logger });
    expect(outcome).toMatchObject({ status: "rotatedElsewhere", roundId: 1n });
    expect(raffle.started).toEqual([1n, 2n]);
    expect(raffle.ended).toEqual([1n]);
  });

  it("never rotates the round another instance started during the run", async () => {
    const { raffle, logger } = setUp();
    raffle.startFirstRound();
    // The twin ends round 1 and starts round 2 between this run's endRound send and its re-read.
    const port = raffle.port("merchant", {
      endRound: async () => {
        raffle.end("merchant");
        raffle.start("merchant");
        throw new Error("nonce has already been used");
      },
    });
    const outcome = await rotateRound(port, { logger });
    expect(outcome.status).toBe("rotatedElsewhere");
    expect(raffle.ended).toEqual([1n]);
    expect(raffle.started).toEqual([1n, 2n]);
  });

  it("rethrows a failed send when the chain shows the step did not happen", async () => {
    const { raffle, logger } = setUp();
    raffle.startFirstRound();
    const port = raffle.port("merchant", {
      endRound: async () => {
        throw new Error("transaction underpriced");
      },
    });
    await expect(rotateRound(port, { logger })).rejects.toThrow("transaction underpriced");
  });

  it("two concurrent runs rotate the round once", async () => {
    const { raffle, logger } = setUp();
    raffle.startFirstRound();
    const outcomes = await Promise.all([rotateRound(raffle.port(), { logger }), rotateRound(raffle.port(), { logger })]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["rotated", "rotatedElsewhere"]);
    expect(raffle.ended).toEqual([1n]);
    expect(raffle.started).toEqual([1n, 2n]);
  });

  it("reports a missing role as a permanent MissingRoleError before sending anything", async () => {
    const { raffle, logger } = setUp();
    raffle.startFirstRound();
    const port = raffle.port("stranger");
    const error = await rotateRound(port, { logger }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MissingRoleError);
    expect(isRetryable(error)).toBe(false);
    expect((error as Error).message).toBe(`merchant key stranger lacks ROUND_MANAGER_ROLE on raffle ${raffle.address}`);
    expect(port.calls).toEqual(["readRound", "simulateEndRound"]);
  });

  describe("a scheduled tick", () => {
    it("leaves alone a round that started at or after the tick (a late twin instance)", async () => {
      const { raffle, logger } = setUp();
      raffle.startFirstRound();
      const tickSecond = Number(raffle.startTimestamp);
      const port = raffle.port();
      const outcome = await rotateRound(port, { logger, tickSecond, now: () => (tickSecond + 5) * 1_000 });
      expect(outcome.status).toBe("alreadyRotatedThisTick");
      expect(port.calls).toEqual(["readRound"]);
    });

    it("rotates a round that started before the tick", async () => {
      const { raffle, logger } = setUp();
      raffle.startFirstRound();
      const tickSecond = Number(raffle.startTimestamp) + 1;
      const outcome = await rotateRound(raffle.port(), { logger, tickSecond, now: () => tickSecond * 1_000 });
      expect(outcome.status).toBe("rotated");
    });

    it("cannot judge, and rotates, when the chain clock runs ahead of the worker's", async () => {
      const { raffle, logger } = setUp();
      raffle.startFirstRound();
      const tickSecond = Number(raffle.startTimestamp) - 10;
      const outcome = await rotateRound(raffle.port(), { logger, tickSecond, now: () => tickSecond * 1_000 });
      expect(outcome.status).toBe("rotated");
    });
  });
});

describe("finishPendingDraws", () => {
  async function raffleAtRound(roundId: bigint) {
    const context = setUp();
    context.raffle.startFirstRound();
    while (context.raffle.roundId < roundId) {
      context.raffle.end("merchant");
      context.raffle.start();
    }
    return context;
  }

  it("draws the winners of every round awaiting them among the latest rounds, and reports the transactions", async () => {
    const { raffle, logger, logs } = await raffleAtRound(7n);
    raffle.awaitingWinners = new Set([5n, 6n]);
    const txHashes: string[] = [];
    const port = raffle.port();
    expect(await finishPendingDraws(port, 7n, { logger, txHashes })).toEqual([5n, 6n]);
    expect(raffle.finishedDraws).toEqual([5n, 6n]);
    expect(txHashes).toHaveLength(2);
    expect(port.calls).toEqual(["roundsAwaitingWinners", "simulateFinishDraw 5", "finishDraw 5", "simulateFinishDraw 6", "finishDraw 6"]);
    expect(logs.messages("info")).toContain("winners drawn with finishDraw");
  });

  it(`looks at the latest ${FINISH_DRAW_LOOKBACK} rounds only, the current one included`, async () => {
    const { raffle, logger } = await raffleAtRound(9n);
    let asked: bigint[] = [];
    const port = raffle.port("anyone", { roundsAwaitingWinners: async (roundIds) => ((asked = roundIds), []) });
    await finishPendingDraws(port, 9n, { logger });
    expect(asked).toEqual([5n, 6n, 7n, 8n, 9n]);
    await finishPendingDraws(port, 2n, { logger });
    expect(asked).toEqual([1n, 2n]);
    expect(await finishPendingDraws(port, 0n, { logger })).toEqual([]);
  });

  it("sends nothing for a draw another caller finished meanwhile", async () => {
    const { raffle, logger } = await raffleAtRound(3n);
    raffle.awaitingWinners = new Set([2n]);
    const port = raffle.port("merchant", {
      roundsAwaitingWinners: async () => {
        raffle.finishDraw(2n); // someone else's finishDraw lands between the read and the simulation
        return [2n];
      },
    });
    expect(await finishPendingDraws(port, 3n, { logger })).toEqual([]);
    expect(port.calls).toEqual(["simulateFinishDraw 2"]);
    expect(raffle.finishedDraws).toEqual([2n]);
  });

  it("logs a failure and goes on with the next round: the rotation never depends on it", async () => {
    const { raffle, logger, logs } = await raffleAtRound(4n);
    raffle.awaitingWinners = new Set([2n, 3n]);
    const port = raffle.port("merchant", {
      finishDraw: async (roundId) => {
        if (roundId === 2n) throw new Error("RPC down");
        return raffle.finishDraw(roundId);
      },
    });
    expect(await finishPendingDraws(port, 4n, { logger })).toEqual([3n]);
    expect(logs.messages("warn")).toContain("finishDraw failed; retried at the next run");
    const unreadable = raffle.port("merchant", { roundsAwaitingWinners: async () => Promise.reject(new Error("RPC down")) });
    expect(await finishPendingDraws(unreadable, 4n, { logger })).toEqual([]);
  });
});
