import { Wallet, ZeroAddress, type JsonRpcProvider } from "ethers";
import {
  Exchange__factory,
  FastVoucherSigner,
  LOCAL_DEV_KEYS,
  NonceSequence,
  RAFFLE_PURCHASE_EXTRA,
  TestToken__factory,
  TokenType,
  type PlatformDeployment,
} from "@raffle/chain";
import { type TestRaffle } from "@raffle/chain/testing";

const PURCHASES_PER_BLOCK = 150;

/**
 * Writes a history of `count` ERC20 purchases to the chain quickly: many buyers, automine off, transactions signed
 * locally with explicit nonces and mined in full blocks.
 */
export async function generatePurchases(
  provider: JsonRpcProvider,
  deployment: PlatformDeployment,
  raffle: TestRaffle,
  count: number,
  progress: (done: number) => void,
): Promise<void> {
  const admin = await provider.getSigner(0);
  const token = TestToken__factory.connect(raffle.price.token, admin);
  const { chainId } = await provider.getNetwork();
  const signer = new FastVoucherSigner(LOCAL_DEV_KEYS.voucherSigner, chainId, deployment.exchange);
  const nonces = new NonceSequence();
  const buyers = Array.from({ length: 50 }, () => Wallet.createRandom().connect(provider));
  // Fund the buyers: gas money, price tokens, and one unlimited approval each.
  for (const buyer of buyers) {
    await provider.send("hardhat_setBalance", [buyer.address, "0x56BC75E2D63100000"]);
    await (await token.mint(buyer.address, raffle.price.amount * BigInt(Math.ceil(count / buyers.length) + 1))).wait();
    await (await TestToken__factory.connect(raffle.price.token, buyer).approve(deployment.exchange, 2n ** 256n - 1n)).wait();
  }
  const exchange = Exchange__factory.createInterface();
  const block = await provider.getBlock("latest");
  const expiresAt = BigInt(block!.timestamp + 365 * 24 * 3600);
  const item = { tokenType: TokenType.ERC721, token: raffle.ticket, tokenId: 0n, amount: 1n };
  const accountNonces = await Promise.all(buyers.map((buyer) => provider.getTransactionCount(buyer.address)));
  const feeData = await provider.getFeeData();

  await provider.send("evm_setAutomine", [false]);
  try {
    let sent = 0;
    while (sent < count) {
      const inBlock = Math.min(PURCHASES_PER_BLOCK, count - sent);
      const raw = await Promise.all(
        Array.from({ length: inBlock }, async (_, i) => {
          const index = (sent + i) % buyers.length;
          const buyer = buyers[index];
          const params = {
            externalId: 1n,
            expiresAt,
            nonce: nonces.take(),
            extra: RAFFLE_PURCHASE_EXTRA,
            receiver: raffle.raffle,
            referrer: ZeroAddress,
          };
          const signature = signer.sign({ account: buyer.address, params, item, price: raffle.price });
          return buyer.signTransaction({
            to: deployment.exchange,
            data: exchange.encodeFunctionData("purchaseRaffle", [params, item, raffle.price, signature]),
            nonce: accountNonces[index]++,
            gasLimit: 300_000n,
            maxFeePerGas: feeData.maxFeePerGas! * 2n,
            maxPriorityFeePerGas: feeData.maxPriorityFeePerGas ?? 1n,
            chainId,
            type: 2,
          });
        }),
      );
      await Promise.all(raw.map((transaction) => provider.send("eth_sendRawTransaction", [transaction])));
      await provider.send("evm_mine", []);
      sent += inBlock;
      progress(sent);
    }
  } finally {
    await provider.send("evm_setAutomine", [true]);
  }
}

export type { TestRaffle };
