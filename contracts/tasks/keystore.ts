import { scope } from "hardhat/config";

import { friendly } from "./action";

/** Keys at rest: an encrypted JSON keystore (Web3 Secret Storage), the format the API and the worker also read. */
scope("keystore", "Encrypted JSON keystores")
  .task("new", "Create a new random key in an encrypted JSON keystore file; prints its address only")
  .addParam("out", "The keystore file to write (never overwritten)")
  .addOptionalParam("passwordFile", "File holding the password (default: asked twice at the prompt)")
  .setAction(
    friendly(async ({ out, passwordFile }: { out: string; passwordFile?: string }) => {
      const fs = await import("node:fs");
      const { Wallet } = await import("ethers");
      if (fs.existsSync(out)) throw new Error(`${out} exists: choose another file (a keystore is never overwritten)`);
      let password: string;
      if (passwordFile) {
        password = fs.readFileSync(passwordFile, "utf8").replace(/\r?\n$/, "");
      } else {
        if (!process.stdin.isTTY) throw new Error("no terminal to ask for the password: pass --password-file");
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { default: enquirer } = require("enquirer");
        const ask = async (message: string) => ((await enquirer.prompt({ type: "password", name: "value", message })) as { value: string }).value;
        password = await ask("Password of the new keystore:");
        if ((await ask("The same password again:")) !== password) throw new Error("the passwords differ: nothing was written");
      }
      if (password.length < 8) throw new Error("the password needs at least 8 characters");
      const wallet = Wallet.createRandom();
      fs.writeFileSync(out, await wallet.encrypt(password), { mode: 0o600, flag: "wx" });
      console.log(wallet.address);
    }),
  );
