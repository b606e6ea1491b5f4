/**
 * The machine-readable last line of every reliability part, which `run-all.ts` reads for its summary table:
 *
 *   RELIABILITY-RESULT {"part":"soak","tried":5,"passed":5}
 *
 * A "case" is one row of the part's own table (a check, a phase, a kill cycle).
 */
export const RESULT_PREFIX = "RELIABILITY-RESULT ";

export interface PartResult {
  part: string;
  tried: number;
  passed: number;
}

export function printResult(part: string, tried: number, passed: number): void {
  const result: PartResult = { part, tried, passed };
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
}

/** The last result line in a part's output, if it printed one. */
export function parseResult(output: string): PartResult | undefined {
  const line = output
    .split("\n")
    .reverse()
    .find((entry) => entry.startsWith(RESULT_PREFIX));
  return line ? (JSON.parse(line.slice(RESULT_PREFIX.length)) as PartResult) : undefined;
}
