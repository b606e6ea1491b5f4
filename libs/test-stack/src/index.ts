// The one builder of test stacks (issue #32): the API's, the worker's, the browser's, the tools' suites and the bench
// build theirs from it. It sits above @raffle/chain and @raffle/db (whose own tests use @raffle/testing) and runs the
// apps as compiled processes, so it depends on no app.
export * from "./child-service";
export * from "./compiled";
export * from "./api-process";
export * from "./test-stack";
