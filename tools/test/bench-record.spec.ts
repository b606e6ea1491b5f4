import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import { benchSettings, machineFacts, writeBenchRecord, type BenchRecord } from "../bench/record";
import { BENCH_BLOCK_END, BENCH_BLOCK_START, benchBlock, withBenchBlock } from "../docs/bench-block";

/** The benchmark's committed record (what `npm run bench` writes) and the docs block made from it. */
describe("the benchmark record", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-bench-record-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("holds the machine's facts and only the BENCH_ settings of the run", () => {
    const machine = machineFacts();
    expect(machine.cores).toBe(os.cpus().length);
    expect(machine.memoryGiB).toBeGreaterThan(0);
    expect(machine.node).toBe(process.version);
    expect(benchSettings({ BENCH_PARTS: "sign", BENCH_SIGN_SECONDS: "5", HOME: "/root", DATABASE_URL: "postgres://u:p@h/db" })).toEqual({
      BENCH_PARTS: "sign",
      BENCH_SIGN_SECONDS: "5",
    });
  });

  it("is rendered into the docs with its date, machine, settings and every row, an unmet target in bold", () => {
    const file = path.join(dir, "record.json");
    const record: BenchRecord = {
      date: "2026-11-25T05:06:57.918Z",
      machine: { cpu: "AMD EPYC", cores: 2, memoryGiB: 23.5, node: "v20.20.2", platform: "linux x64" },
      parts: ["sign", "gas"],
      settings: { BENCH_SIGN_SECONDS: "5" },
      rows: [
        { measure: "sign (16 connections)", result: "2,000 req/s", target: ">= 3000 req/s", met: false },
        { measure: "gas: startRound", result: "163575", target: "", met: null },
      ],
    };
    writeBenchRecord(record, file);
    const block = benchBlock(file);
    expect(block.startsWith(BENCH_BLOCK_START) && block.endsWith(BENCH_BLOCK_END)).toBe(true);
    expect(block).toContain("Last run: 2026-11-25 05:06 UTC, 2 cores (AMD EPYC), 23.5 GiB of memory");
    expect(block).toContain("Parts: sign, gas. Settings: `BENCH_SIGN_SECONDS=5`.");
    expect(block).toContain("| sign (16 connections) | 2,000 req/s | >= 3000 req/s | **no** |");
    expect(block).toContain("| gas: startRound | 163575 |  |  |");
    const page = `# Performance\n\n${BENCH_BLOCK_START}\nold\n${BENCH_BLOCK_END}\n\nmore\n`;
    expect(withBenchBlock(page, file)).toBe(`# Performance\n\n${block}\n\nmore\n`);
    expect(() => withBenchBlock("# no markers\n", file)).toThrow(/markers/);
  });
});
