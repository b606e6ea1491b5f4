import { ConfigError, ConfigProblems } from "./env";
import { readSettings } from "./read-settings";
import { setting } from "./settings";

describe("ConfigError", () => {
  it("keeps each problem and joins them into its message", () => {
    const error = new ConfigError(['PORT must be an integer >= 0, got "x"', "API_KEY is required"]);
    expect(error.problems).toEqual(['PORT must be an integer >= 0, got "x"', "API_KEY is required"]);
    expect(error.message).toBe('PORT must be an integer >= 0, got "x"; API_KEY is required');
    expect(new ConfigError("API_KEY is required").problems).toEqual(["API_KEY is required"]);
  });
});

describe("ConfigProblems", () => {
  it("gathers the problems of several reads into one error, each once", () => {
    const problems = new ConfigProblems();
    const shared = { FEE: setting.decimal({ min: 1 }).default(2) };
    const env = { FEE: "0", PORT: "x" };
    problems.read(() => readSettings(env, shared));
    problems.read(() => readSettings(env, shared));
    expect(problems.read(() => readSettings(env, { PORT: setting.integer() }))).toBeUndefined();
    problems.add("API_WORKERS > 1 needs REDIS_URL");
    let error: unknown;
    try {
      problems.check();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'FEE must be a number >= 1, got "0"',
      'PORT must be an integer >= 0, got "x"',
      "API_WORKERS > 1 needs REDIS_URL",
    ]);
  });

  it("answers what was read when it was good, and lets other errors through", () => {
    const problems = new ConfigProblems();
    expect(problems.read(() => readSettings({ PORT: "8080" }, { PORT: setting.integer() }))).toEqual({ PORT: 8080 });
    expect(() => problems.check()).not.toThrow();
    expect(() =>
      problems.read(() => {
        throw new TypeError("a bug, not a setting");
      }),
    ).toThrow(TypeError);
  });
});
