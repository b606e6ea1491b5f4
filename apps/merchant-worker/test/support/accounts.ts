import { HDNodeWallet, Mnemonic } from "ethers";

/** Hardhat's default mnemonic: its local accounts are public and worthless off local chains. */
const HARDHAT_MNEMONIC = Mnemonic.fromPhrase("test test test test test test test test test test test junk");

/** Private key of Hardhat local account #index (2 is the demo merchant of `setUpWorld`). */
export function hardhatAccountKey(index: number): string {
  return HDNodeWallet.fromMnemonic(HARDHAT_MNEMONIC, `m/44'/60'/0'/0/${index}`).privateKey;
}
