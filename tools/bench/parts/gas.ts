/** Part "gas": the committed gas snapshot (contracts/gas-snapshot.json) with its targets. */
import * as fs from "node:fs";
import * as path from "node:path";

import { ROOT } from "../settings";
import type { BenchStack } from "../stack";

export async function gasPart({ results, rows }: Pick<BenchStack, "results" | "rows">): Promise<void> {
  const snapshot = JSON.parse(fs.readFileSync(path.join(ROOT, "contracts/gas-snapshot.json"), "utf8")) as {
    figures: Record<string, number>;
    targets: Record<string, number>;
  };
  results.gas = snapshot;
  for (const [name, gas] of Object.entries(snapshot.figures)) {
    const target = snapshot.targets[name];
    rows.push({ measure: `gas: ${name}`, result: String(gas), target: target ? `<= ${target}` : "", met: target ? gas <= target : null });
  }
}
