/*
 * The local chains' public facts (their ids, Hardhat's well-known accounts), without ethers: the API's cluster primary
 * checks its settings against them (see ../settings.ts) and loads nothing heavier.
 */

/**
 * Well-known private keys of Hardhat's default local accounts (mnemonic "test test ... junk"). They are public,
 * hold value only on local chains, and are the dev defaults of the local stack: never use them elsewhere.
 */
export const LOCAL_DEV_KEYS = Object.freeze({
  /** Account #0: deploys the platform and administers it. */
  platformAdmin: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  /** Account #1: the API's voucher signer. */
  voucherSigner: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  /** Account #2: the demo merchant. */
  demoMerchant: "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
});

export const LOCAL_CHAIN_ID = 31337;
/** The local stack's second chain (`npm start` runs two), also a dev chain. */
export const SECOND_LOCAL_CHAIN_ID = 31338;
/** Chains on which the dev defaults (well-known keys, the VRF mock) are allowed: the local stack's, nowhere else. */
export const LOCAL_CHAIN_IDS: readonly number[] = Object.freeze([LOCAL_CHAIN_ID, SECOND_LOCAL_CHAIN_ID]);

/** The public mnemonic of Hardhat's default accounts. */
export const LOCAL_DEV_MNEMONIC = "test test test test test test test test test test test junk";

/** How many of the mnemonic's accounts count as well known: Hardhat and anvil fund and print the first 20. */
export const WELL_KNOWN_DEV_ACCOUNTS = 20;
