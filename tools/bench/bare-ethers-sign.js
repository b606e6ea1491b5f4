// The baseline of part 1: how fast a service signs with a bare ethers loop. Plain JavaScript in a fresh process
// (no TypeScript loader, no other work), warmed up before it is timed, so the baseline is ethers at its best.
// Input (argv[2]): JSON {privateKey, domain, types, voucher, seconds}; output: signatures per second.
const { Wallet } = require("ethers");

async function rate(wallet, domain, types, voucher, seconds) {
  const until = Date.now() + seconds * 1000;
  let count = 0;
  while (Date.now() < until) {
    await wallet.signTypedData(domain, types, voucher);
    count += 1;
  }
  return count / seconds;
}

(async () => {
  const { privateKey, domain, types, voucher, seconds } = JSON.parse(process.argv[2]);
  const wallet = new Wallet(privateKey);
  await rate(wallet, domain, types, voucher, 2);
  process.stdout.write(`${await rate(wallet, domain, types, voucher, seconds)}\n`);
})();
