import { HDNodeWallet } from "ethers";

import { LOCAL_DEV_MNEMONIC, WELL_KNOWN_DEV_ACCOUNTS } from "./local-chains";

export * from "./local-chains";

/** Private key of Hardhat's default account `index` (local chains only). */
export function localDevPrivateKey(index: number): string {
  return HDNodeWallet.fromPhrase(LOCAL_DEV_MNEMONIC, undefined, `m/44'/60'/0'/0/${index}`).privateKey;
}

let devAddresses: Map<string, number> | undefined;

/**
 * The index of `address` among Hardhat's default accounts (whose keys everyone knows), or undefined. Deployments to
 * real chains refuse these as signer, deployer or merchant: anyone could act with them.
 */
export function wellKnownDevAccountIndex(address: string): number | undefined {
  if (!devAddresses) {
    // One seed derivation for all of them: the mnemonic's PBKDF2 is the slow part.
    const parent = HDNodeWallet.fromPhrase(LOCAL_DEV_MNEMONIC, undefined, "m/44'/60'/0'/0");
    devAddresses = new Map();
    for (let index = 0; index < WELL_KNOWN_DEV_ACCOUNTS; index += 1) {
      devAddresses.set(parent.deriveChild(index).address.toLowerCase(), index);
    }
  }
  return devAddresses.get(address.toLowerCase());
}
