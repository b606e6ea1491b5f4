import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Endpoint secrets at rest: AES-256-GCM under WEBHOOK_ENCRYPTION_KEY, as `v1.<iv>.<tag>.<ciphertext>` (base64).
 * The API must sign with the secret, so it cannot keep only a hash; a stolen database alone reveals none of them.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error("the webhook secret key must be 32 bytes");
  }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
    return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), sealed.toString("base64")].join(".");
  }

  open(box: string): string {
    const [version, iv, tag, sealed] = box.split(".");
    if (version !== "v1" || !iv || !tag || sealed === undefined) throw new Error("not a sealed webhook secret");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64"));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    return Buffer.concat([decipher.update(Buffer.from(sealed, "base64")), decipher.final()]).toString("utf8");
  }
}

/** A new endpoint secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}
