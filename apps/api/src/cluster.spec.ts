import { workerExecArgv } from "./cluster";

describe("workerExecArgv", () => {
  it("gives the workers their young and old generation sizes and single-threaded collections", () => {
    expect(workerExecArgv([], "")).toEqual(["--max-semi-space-size=4", "--max-old-space-size=512", "--single-threaded-gc"]);
  });

  it("keeps the primary's own flags first", () => {
    expect(workerExecArgv(["--enable-source-maps"], "")[0]).toBe("--enable-source-maps");
  });

  it("leaves the collector's threads alone when the command line chooses them (Node refuses them in NODE_OPTIONS)", () => {
    for (const given of ["--no-single-threaded-gc", "--single-threaded-gc", "--parallel-scavenge", "--no-parallel-scavenge"]) {
      expect(workerExecArgv([given], "").filter((flag) => /gc|scavenge/.test(flag))).toEqual([given]);
    }
  });

  it("leaves a size alone when NODE_OPTIONS sets it", () => {
    expect(workerExecArgv([], "--max-old-space-size=300")).toEqual(["--max-semi-space-size=4", "--single-threaded-gc"]);
  });
});
