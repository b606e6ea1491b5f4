import { Wallet } from "ethers";

import { LOCAL_DEV_KEYS, localDevPrivateKey } from "./dev-accounts";

describe("local dev accounts", () => {
  it("derives Hardhat's default accounts from the public mnemonic", () => {
    expect(localDevPrivateKey(0)).toBe(LOCAL_DEV_KEYS.platformAdmin);
    expect(localDevPrivateKey(1)).toBe(LOCAL_DEV_KEYS.voucherSigner);
    expect(localDevPrivateKey(2)).toBe(LOCAL_DEV_KEYS.demoMerchant);
    expect(new Wallet(localDevPrivateKey(0)).address).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
  });
});
