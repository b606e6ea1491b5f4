import { accountPurchases, redeliveriesAfter, summarizeLag, type Reception } from "../reliability/launch-accounting";

const purchase = (id: string, txHash: string | null, at = 0, extra: Partial<Reception> = {}): Reception => ({
  id,
  at,
  type: "ticket.purchased",
  txHash,
  removed: false,
  ...extra,
});

describe("the launch run's lag figures", () => {
  const samples = [
    { at: 0, lag: 1 },
    { at: 250, lag: 2 },
    // The kill at 400: the lag still looks fine a moment, then grows until the standby catches up.
    { at: 500, lag: 1 },
    { at: 750, lag: 4 },
    { at: 1_000, lag: 6 },
    { at: 1_250, lag: 2 },
    { at: 1_500, lag: 3 },
  ];

  it("closes the window at the first sample within the bound once the standby leads, not at the first good one after the kill", () => {
    const summary = summarizeLag(samples, 400, 1_100, 2);
    expect(summary).toMatchObject({ windowStart: 400, windowEnd: 1_250, maxAcross: 6, samples: 7 });
    // After the window the 3 at 1,500 counts against the bound.
    expect(summary).toMatchObject({ maxOutside: 3, breachesOutside: 1 });
  });

  it("leaves every sample after the kill inside a window that never closes", () => {
    expect(summarizeLag(samples, 400, null, 2)).toMatchObject({ windowEnd: null, maxOutside: 2, breachesOutside: 0, maxAcross: 6 });
  });
});

describe("the launch run's exactly-once accounting", () => {
  it("counts each mined purchase once in the database and once at the receiver, whatever the hashes' case", () => {
    const account = accountPurchases(
      ["0xAA", "0xbb"],
      new Map([
        ["0xaa", 1],
        ["0xBB", 1],
      ]),
      [purchase("msg_1", "0xaa"), purchase("msg_2", "0xBB"), { ...purchase("msg_3", "0xaa"), type: "round.started" }],
    );
    expect(account).toMatchObject({ mined: 2, inDatabaseOnce: 2, webhookOnce: 2, redeliveries: 0, unexpectedWebhooks: 0, unexpectedInDatabase: 0 });
  });

  it("names purchases missing or doubled in the database, and rows of transactions never mined", () => {
    const account = accountPurchases(
      ["0x01", "0x02", "0x03"],
      new Map([
        ["0x01", 1],
        ["0x02", 2],
        ["0x99", 1],
      ]),
      [],
    );
    expect(account).toMatchObject({ inDatabaseOnce: 1, missingInDatabase: ["0x03"], duplicatedInDatabase: ["0x02"], unexpectedInDatabase: 1 });
  });

  it("tells a re-delivery (one webhook-id twice) from a duplicate (two ids for one purchase) and a missing message", () => {
    const account = accountPurchases(["0x01", "0x02", "0x03"], new Map(), [
      purchase("msg_1", "0x01"),
      purchase("msg_1", "0x01"),
      purchase("msg_2", "0x02"),
      purchase("msg_9", "0x02"),
    ]);
    expect(account).toMatchObject({ webhookOnce: 1, redeliveries: 1, splitWebhook: ["0x02"], missingWebhook: ["0x03"] });
  });

  it("counts retractions and messages of unknown transactions as unexpected", () => {
    const account = accountPurchases(["0x01"], new Map(), [
      purchase("msg_1", "0x01"),
      purchase("msg_2", "0x01", 0, { removed: true }),
      purchase("msg_3", "0x77"),
      purchase("msg_4", null),
    ]);
    expect(account).toMatchObject({ webhookOnce: 1, unexpectedWebhooks: 3 });
  });

  it("excuses only re-deliveries of messages first sent before the worker's kill", () => {
    const receptions = [
      purchase("msg_1", "0x01", 100),
      purchase("msg_2", "0x02", 900),
      purchase("msg_1", "0x01", 1_200),
      purchase("msg_2", "0x02", 1_300),
    ];
    expect(redeliveriesAfter(receptions, 500)).toBe(1);
    expect(redeliveriesAfter(receptions, 1_000)).toBe(0);
  });
});
