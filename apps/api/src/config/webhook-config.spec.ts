import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ConfigError } from "@raffle/config";

import { WEBHOOK_TIMING, loadWebhookConfig } from "./webhook-config";

describe("webhook config", () => {
  it("has the documented defaults: 10 s timeout, 24 h of retries, private URLs refused", () => {
    const config = loadWebhookConfig({}, [31337]);
    expect(config).toMatchObject({ timeoutMs: 10_000, retryHorizonMs: 86_400_000, allowPrivateUrls: false, deliveryEnabled: true });
    expect(config.encryptionKey).toHaveLength(32);
  });

  it("needs WEBHOOK_ENCRYPTION_KEY off the local dev chains, and names it without echoing a bad value", () => {
    expect(() => loadWebhookConfig({}, [1])).toThrow(
      new ConfigError(
        "WEBHOOK_ENCRYPTION_KEY (or WEBHOOK_ENCRYPTION_KEY_FILE) is required off the local dev chains: 32 bytes as 64 hex digits or base64",
      ),
    );
    expect(() => loadWebhookConfig({}, [31337, 8453])).toThrow(/WEBHOOK_ENCRYPTION_KEY \(or WEBHOOK_ENCRYPTION_KEY_FILE\) is required/);
    const bad = "c2hvcnQta2V5LXZhbHVl";
    expect(() => loadWebhookConfig({ WEBHOOK_ENCRYPTION_KEY: bad }, [1])).toThrow(/must hold 32 bytes/);
    try {
      loadWebhookConfig({ WEBHOOK_ENCRYPTION_KEY: bad }, [1]);
    } catch (error) {
      expect((error as Error).message).not.toContain(bad);
    }
    const hex = "ab".repeat(32);
    expect(loadWebhookConfig({ WEBHOOK_ENCRYPTION_KEY: hex }, [1]).encryptionKey.toString("hex")).toBe(hex);
    expect(loadWebhookConfig({ WEBHOOK_ENCRYPTION_KEY: Buffer.from(hex, "hex").toString("base64") }, [1]).encryptionKey.toString("hex")).toBe(hex);
  });

  it("reports every bad webhook setting at once, each by name", () => {
    expect(() => loadWebhookConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: "sometimes" }, [1])).toThrow(
      new ConfigError(
        'WEBHOOK_ALLOW_PRIVATE_URLS must be true or false, got "sometimes"; ' +
          "WEBHOOK_ENCRYPTION_KEY (or WEBHOOK_ENCRYPTION_KEY_FILE) is required off the local dev chains: 32 bytes as 64 hex digits or base64",
      ),
    );
    expect(loadWebhookConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: "" }, [31337])).toMatchObject({
      deliveryEnabled: true,
      allowPrivateUrls: false,
    });
  });

  it("fixes the delivery's pace: a former WEBHOOK_TIMEOUT_MS or WEBHOOK_CONCURRENCY in the environment changes nothing", () => {
    const config = loadWebhookConfig({ WEBHOOK_TIMEOUT_MS: "10", WEBHOOK_CONCURRENCY: "500", WEBHOOK_RETRY_BASE_MS: "1" }, [31337]);
    expect(config).toMatchObject(WEBHOOK_TIMING);
    expect(WEBHOOK_TIMING.concurrencyPerMerchant).toBeLessThanOrEqual(WEBHOOK_TIMING.concurrency);
    expect(WEBHOOK_TIMING.retryBaseMs).toBeLessThan(WEBHOOK_TIMING.retryMaxDelayMs);
  });

  it("reads the key from WEBHOOK_ENCRYPTION_KEY_FILE (a mounted secret), naming the file when it cannot", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "raffle-webhook-key-")), "webhook.key");
    const hex = "cd".repeat(32);
    fs.writeFileSync(file, `${hex}\n`);
    expect(loadWebhookConfig({ WEBHOOK_ENCRYPTION_KEY_FILE: file }, [1]).encryptionKey.toString("hex")).toBe(hex);
    expect(() => loadWebhookConfig({ WEBHOOK_ENCRYPTION_KEY_FILE: `${file}.missing` }, [1])).toThrow(
      new ConfigError(`WEBHOOK_ENCRYPTION_KEY_FILE ${file}.missing cannot be read (ENOENT)`),
    );
  });
});
