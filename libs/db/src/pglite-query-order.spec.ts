import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "pg";

import { startEmbeddedPglite, type EmbeddedPglite } from "./embedded-pglite";

describe("the embedded PGlite served to several connections", () => {
  let embedded: EmbeddedPglite;
  const clients: Client[] = [];

  beforeAll(async () => {
    embedded = await startEmbeddedPglite(fs.mkdtempSync(path.join(os.tmpdir(), "raffle-pglite-order-")));
    for (let i = 0; i < 4; i += 1) {
      const client = new Client({ connectionString: embedded.url });
      await client.connect();
      clients.push(client);
    }
  });

  afterAll(async () => {
    for (const client of clients) await client.end();
    await embedded?.stop();
  });

  it("keeps each connection's parameterised queries whole when they run at once (no Bind on another's statement)", async () => {
    // A Bind too large for one TCP read (a bulk INSERT of the indexer) arrives in pieces; meanwhile the other
    // connections' small queries with an integer parameter run. Interleaved, the large Bind would land on one of their
    // unnamed statements and its text be parsed as an integer.
    const large = `0x${"ab".repeat(100_000)}`;
    const [bulk, ...others] = clients;
    const runs = [
      ...Array.from({ length: 5 }, async () => {
        const { rows } = await bulk.query("SELECT length($1::text) AS value", [large]);
        expect(rows).toEqual([{ value: large.length }]);
      }),
      ...others.flatMap((client) =>
        Array.from({ length: 40 }, async (_, round) => {
          const { rows } = await client.query("SELECT $1::int + 1 AS value", [round]);
          expect(rows).toEqual([{ value: round + 1 }]);
        }),
      ),
    ];
    await Promise.all(runs);
  });
});
