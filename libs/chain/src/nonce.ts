import { hexlify, randomBytes } from "ethers";

const RUN_LENGTH = 256;

/**
 * Voucher nonces handed out in runs of 256 that share their upper 31 bytes and differ in the last byte.
 * The Exchange keeps used nonces as a bitmap keyed by `nonce >> 8`, so the purchases of one run flip bits in a
 * single storage word (~5k gas each) instead of each filling a fresh slot (~22k gas). The random prefix keeps
 * nonces unpredictable across runs and unique across API replicas; any value stays single-use on-chain.
 */
export class NonceSequence {
  private prefix = "";
  private next = RUN_LENGTH;

  constructor(private readonly random: (length: number) => Uint8Array = randomBytes) {}

  take(): string {
    if (this.next >= RUN_LENGTH) {
      this.prefix = hexlify(this.random(31));
      this.next = 0;
    }
    const last = this.next.toString(16).padStart(2, "0");
    this.next += 1;
    return `${this.prefix}${last}`;
  }
}
