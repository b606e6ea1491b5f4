import * as fs from "node:fs";
import type * as Ethers from "ethers";

import { ConfigError } from "./env";

/*
 * The one reader of encrypted JSON keystores (Web3 Secret Storage, as `hardhat keystore new`, geth and ethers write
 * them), for the API's voucher keys, the worker's merchant key and the deploy scripts' keys alike. Every error names
 * the setting and the path, never the file's content, the password or the key: they would end up in a log line.
 */

/**
 * ethers, loaded on first use: every app's settings load this module, and the API's cluster primary, which only checks
 * its settings and forks, needs ethers only when a keystore is configured (ethers is about 17 MiB of RSS).
 */
function ethers(): typeof Ethers {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("ethers") as typeof Ethers;
}

/** Where a keystore and its password are, and the settings that named them (for messages). */
export interface KeystoreSource {
  file: string;
  setting: string;
  passwordFile: string;
  passwordSetting: string;
}

/** A file holding a secret, as text; unreadable, a ConfigError naming the setting and the path (never the content). */
export function readSecretFile(file: string, setting: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(`${setting} ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? "unreadable"})`);
  }
}

/**
 * The password in a password file. Only the line break an editor or `echo` leaves at its end is dropped: any other
 * character, spaces included, is part of the password.
 */
export function readKeystorePassword(passwordFile: string, passwordSetting: string): string {
  return readSecretFile(passwordFile, passwordSetting).replace(/\r?\n$/, "");
}

/** A keystore's JSON and the address it states, known without decrypting (for messages and checks before a prompt). */
export function readKeystoreFile(file: string, setting: string): { json: string; address: string } {
  const json = readSecretFile(file, setting);
  try {
    return { json, address: ethers().getAddress(`0x${String(JSON.parse(json).address).replace(/^0x/, "")}`) };
  } catch {
    throw new ConfigError(`${setting} ${file} is not a JSON keystore (no readable address)`);
  }
}

function cannotDecrypt(source: Pick<KeystoreSource, "file" | "setting" | "passwordSetting">): ConfigError {
  return new ConfigError(
    `cannot decrypt ${source.setting} ${source.file} with the password in ${source.passwordSetting}: a wrong password or not a JSON keystore`,
  );
}

/** The private key in a keystore, decrypted with its password file (synchronously: the apps read it at start-up). */
export function readKeystore(source: KeystoreSource): string {
  const json = readSecretFile(source.file, source.setting);
  const password = readKeystorePassword(source.passwordFile, source.passwordSetting);
  try {
    return ethers().Wallet.fromEncryptedJsonSync(json, password).privateKey;
  } catch {
    throw cannotDecrypt(source);
  }
}

/** The private key in keystore JSON already read, with a password from anywhere (a file, a prompt); asynchronous. */
export async function decryptKeystore(
  json: string,
  password: string,
  source: Pick<KeystoreSource, "file" | "setting" | "passwordSetting">,
): Promise<string> {
  try {
    return (await ethers().Wallet.fromEncryptedJson(json, password)).privateKey;
  } catch {
    throw cannotDecrypt(source);
  }
}
