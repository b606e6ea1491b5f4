import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Wallet, encryptKeystoreJsonSync } from "ethers";

import { ConfigError } from "./env";
import { decryptKeystore, readKeystore, readKeystoreFile, readKeystorePassword } from "./keystore";

const KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const PASSWORD = "s3cret with spaces ";

describe("the keystore reader", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-keystore-"));
  const file = path.join(dir, "key.json");
  const passwordFile = path.join(dir, "password.txt");
  const address = new Wallet(KEY).address;
  const source = { file, setting: "SIGNER_KEYSTORE_FILE", passwordFile, passwordSetting: "SIGNER_KEYSTORE_PASSWORD_FILE" };
  fs.writeFileSync(file, encryptKeystoreJsonSync({ address, privateKey: KEY }, PASSWORD, { scrypt: { N: 1 << 10 } }));
  // An editor's or echo's line break at the end is not part of the password; the trailing space is.
  fs.writeFileSync(passwordFile, `${PASSWORD}\n`);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("decrypts a keystore with its password file, dropping only the final line break", async () => {
    expect(readKeystorePassword(passwordFile, source.passwordSetting)).toBe(PASSWORD);
    expect(readKeystore(source)).toBe(KEY);
    const { json, address: stated } = readKeystoreFile(file, source.setting);
    expect(stated).toBe(address);
    await expect(decryptKeystore(json, PASSWORD, source)).resolves.toBe(KEY);
  });

  it("refuses a wrong password with a ConfigError naming both settings, never the password", async () => {
    const wrong = path.join(dir, "wrong.txt");
    fs.writeFileSync(wrong, "hunter2");
    const expected = `cannot decrypt SIGNER_KEYSTORE_FILE ${file} with the password in SIGNER_KEYSTORE_PASSWORD_FILE: a wrong password or not a JSON keystore`;
    expect(() => readKeystore({ ...source, passwordFile: wrong })).toThrow(new ConfigError(expected));
    await expect(decryptKeystore(readKeystoreFile(file, source.setting).json, "hunter2", source)).rejects.toThrow(expected);
    expect(() => readKeystore({ ...source, passwordFile: wrong })).not.toThrow(/hunter2/);
  });

  it("names the setting and the path of a file it cannot read or that is no keystore, never its content", () => {
    expect(() => readKeystore({ ...source, file: path.join(dir, "missing.json") })).toThrow(
      new ConfigError(`SIGNER_KEYSTORE_FILE ${path.join(dir, "missing.json")} cannot be read (ENOENT)`),
    );
    const notKeystore = path.join(dir, "not.json");
    fs.writeFileSync(notKeystore, "secret-looking text");
    expect(() => readKeystoreFile(notKeystore, "DEPLOYER_KEYSTORE_FILE")).toThrow(
      new ConfigError(`DEPLOYER_KEYSTORE_FILE ${notKeystore} is not a JSON keystore (no readable address)`),
    );
    expect(() => readKeystoreFile(notKeystore, "DEPLOYER_KEYSTORE_FILE")).not.toThrow(/secret-looking/);
  });
});
