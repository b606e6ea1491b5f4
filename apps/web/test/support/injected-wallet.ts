import { Wallet, getBytes, isHexString, type JsonRpcProvider, type TypedDataDomain, type TypedDataField } from "ethers";
import type { Page } from "playwright-core";

/**
 * A browser wallet without an extension: an EIP-1193 provider installed before the page's scripts run and announced
 * over EIP-6963 (and as window.ethereum); every request goes to Node, where a funded local key signs and the chain's
 * node answers the rest. A test can make the "player" decline the next request of a method.
 */
export class InjectedWallet {
  chainId: number;
  private readonly declines = new Set<string>();
  /** Every method the page asked the wallet for, in order: a test can assert that nothing was signed or sent. */
  readonly requests: string[] = [];
  /** The primary type of every typed-data message signed, in order ("Permit", "PurchaseIntent", ...). */
  readonly signedTypes: string[] = [];
  /** As a real wallet: no account for the site until the player approves the connection (eth_requestAccounts). */
  private authorized = false;

  constructor(
    private wallet: Wallet,
    private readonly provider: JsonRpcProvider,
    chainId: number,
  ) {
    this.chainId = chainId;
  }

  get address(): string {
    return this.wallet.address;
  }

  /** Another account in the same wallet (a browser runs one page here): the site must be connected to it again. */
  useAccount(wallet: Wallet): void {
    this.wallet = wallet;
    this.authorized = false;
  }

  /** The player presses "Reject" on the next request of this method (personal_sign, eth_sendTransaction). */
  declineNext(method: string): void {
    this.declines.add(method);
  }

  async install(page: Page): Promise<void> {
    await page.exposeFunction("__testWalletRequest", async (text: string) => JSON.stringify(await this.answer(page, JSON.parse(text))));
    await page.addInitScript(PAGE_SCRIPT);
  }

  private async answer(page: Page, { method, params }: { method: string; params: unknown[] }): Promise<unknown> {
    this.requests.push(method);
    try {
      if (this.declines.delete(method)) return { error: { code: 4001, message: "User rejected the request." } };
      return { result: await this.handle(page, method, params) };
    } catch (error) {
      const failure = error as {
        error?: { code?: number; message?: string; data?: unknown };
        info?: { error?: { code?: number; message?: string; data?: unknown } };
        message?: string;
        code?: unknown;
      };
      const rpc = failure.info?.error ?? failure.error;
      return {
        error: {
          code: typeof rpc?.code === "number" ? rpc.code : -32603,
          message: rpc?.message ?? failure.message ?? "wallet error",
          data: rpc?.data,
        },
      };
    }
  }

  private async handle(page: Page, method: string, params: unknown[]): Promise<unknown> {
    switch (method) {
      case "eth_requestAccounts":
        this.authorized = true;
        return [this.wallet.address];
      case "eth_accounts":
        return this.authorized ? [this.wallet.address] : [];
      case "eth_chainId":
        return `0x${this.chainId.toString(16)}`;
      case "wallet_switchEthereumChain": {
        this.chainId = Number((params[0] as { chainId: string }).chainId);
        await page.evaluate(`window.__testWalletEmit("chainChanged", "0x${this.chainId.toString(16)}")`);
        return null;
      }
      case "wallet_requestPermissions":
        this.authorized = true;
        return [{ parentCapability: "eth_accounts" }];
      case "wallet_revokePermissions":
        this.authorized = false;
        return null;
      case "personal_sign": {
        const message = params[0] as string;
        return this.wallet.signMessage(isHexString(message) ? getBytes(message) : message);
      }
      case "eth_signTypedData_v4": {
        // As a browser wallet signs EIP-712: whatever network it is on, for the domain the typed data names.
        const [from, json] = params as [string, string];
        if (from.toLowerCase() !== this.wallet.address.toLowerCase()) throw Object.assign(new Error("unknown account"), { code: 4100 });
        const { domain, types, message, primaryType } = JSON.parse(json) as {
          domain: TypedDataDomain;
          types: Record<string, TypedDataField[]>;
          message: Record<string, unknown>;
          primaryType: string;
        };
        this.signedTypes.push(primaryType);
        const { EIP712Domain: _domainType, ...signed } = types;
        return this.wallet.signTypedData(domain, signed, message);
      }
      case "eth_sendTransaction": {
        const tx = params[0] as { to: string; data?: string; value?: string; gas?: string };
        const sent = await this.wallet.connect(this.provider).sendTransaction({ to: tx.to, data: tx.data, value: tx.value ? BigInt(tx.value) : 0n });
        return sent.hash;
      }
      default:
        return this.provider.send(method, params);
    }
  }
}

const PAGE_SCRIPT = `(() => {
  const listeners = {};
  const provider = {
    async request({ method, params }) {
      const answer = JSON.parse(await window.__testWalletRequest(JSON.stringify({ method, params: params || [] })));
      if (answer.error) {
        const error = new Error(answer.error.message);
        error.code = answer.error.code;
        if (answer.error.data !== undefined) error.data = answer.error.data;
        throw error;
      }
      return answer.result;
    },
    on(event, listener) { (listeners[event] = listeners[event] || []).push(listener); return provider; },
    removeListener(event, listener) { listeners[event] = (listeners[event] || []).filter((each) => each !== listener); return provider; },
  };
  window.__testWalletEmit = (event, data) => (listeners[event] || []).forEach((listener) => listener(data));
  const info = Object.freeze({
    uuid: "5f0d8a4e-1a1b-4c3d-9e8f-0a1b2c3d4e5f",
    name: "Test Wallet",
    rdns: "dev.raffle.test-wallet",
    icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='20' height='20'%3E%3Crect width='20' height='20' rx='4' fill='%230b57d0'/%3E%3C/svg%3E",
  });
  const announce = () => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }));
  window.addEventListener("eip6963:requestProvider", announce);
  announce();
  window.ethereum = provider;
})();`;
