import * as http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Stand-ins for what a public testnet already has, on a local `hardhat node` that uses the testnet's chain id. CreateX,
 * a Chainlink VRF coordinator, a subscription and the faucet are the rehearsal's (`npm run deploy:rehearse` readies a
 * node with the same code); the Etherscan-compatible API is the tests' own.
 */
export { CREATEX_ADDRESS, createFundedSubscription, deployCoordinator, fund, installCreateX } from "@raffle/chain/testing";

export interface Submission {
  address: string;
  contractName: string;
  apiKey: string;
  /** ABI-encoded constructor arguments, hex without 0x (the API's own spelling: `constructorArguements`). */
  constructorArguments: string;
}

/** An Etherscan-compatible verification API that accepts every submission and records it. */
export async function startExplorer(): Promise<{ url: string; submissions: Submission[]; stop(): Promise<void> }> {
  const submissions: Submission[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const query = new URL(request.url!, "http://explorer").searchParams;
      const form = new URLSearchParams(body);
      const action = form.get("action") ?? query.get("action");
      let answer: object = { status: "0", message: "NOTOK", result: "unknown action" };
      if (action === "getsourcecode") answer = { status: "0", message: "NOTOK", result: "Contract source code not verified" };
      if (action === "verifysourcecode") {
        submissions.push({
          address: form.get("contractaddress")!,
          contractName: form.get("contractname")!,
          apiKey: form.get("apikey")!,
          constructorArguments: form.get("constructorArguements") ?? "",
        });
        answer = { status: "1", message: "OK", result: `guid-${submissions.length}` };
      }
      if (action === "checkverifystatus") answer = { status: "1", message: "OK", result: "Pass - Verified" };
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    submissions,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
