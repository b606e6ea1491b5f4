const path = require("node:path");
const { jestConfig } = require("../tools/jest/base.cjs");

// `npm test` runs this suite on two workers (`--maxWorkers=2` in package.json): its long specs start whole stacks
// (`npm start`, the deployer's walkthrough, the packed SDK, a production install) and wait on them far more than they
// compute, so two at a time halve the suite's wall time for the same CPU. What they share in the repository is
// guarded: the build is made once and frozen before they start (jest/build-once.cjs), and packing the SDK, which swaps
// its manifest, takes a lock with the specs that copy the manifests (test/support/packed-sdk.ts).
module.exports = jestConfig(__dirname, { testTimeout: 300_000, globalSetup: path.join(__dirname, "jest/build-once.cjs") });
