import * as path from "node:path";
import { ZeroAddress } from "ethers";
import { LOCAL_CHAIN_ID, type PlatformDeployment } from "@raffle/chain";
import type { OpenAPIObject } from "@nestjs/swagger";
import { DataSource } from "typeorm";

import { createAppOn } from "../app/create-app";
import { loadApiConfig } from "../config/api-config";
import { createOpenApiDocument } from "./openapi-document";

/** The committed document: the SDK's types are generated from it, and CI lints it. */
export const OPENAPI_FILE = path.resolve(__dirname, "../../openapi.json");

/** The document's text as committed: two-space JSON and a final newline. */
export function openApiText(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The document does not depend on any address; the application only needs well-formed ones to be built. */
const NO_DEPLOYMENT: PlatformDeployment = {
  chainId: LOCAL_CHAIN_ID,
  exchange: ZeroAddress,
  raffleFactory: ZeroAddress,
  ticketDeployer: ZeroAddress,
  vrfCoordinator: ZeroAddress,
  vrfKeyHash: `0x${"0".repeat(64)}`,
  vrfSubscriptionId: "0",
  vrfIsMock: true,
  signer: ZeroAddress,
  admin: ZeroAddress,
  deployBlock: 0,
  deployedAt: "1970-01-01T00:00:00.000Z",
};

/**
 * The OpenAPI document of the code as it is, built without a database, a chain or a port: the application is created
 * (which reads the routes and DTOs) but never initialised, so nothing connects.
 */
export async function buildOpenApiDocument(): Promise<OpenAPIObject> {
  const app = await createAppOn(loadApiConfig({}, NO_DEPLOYMENT), new DataSource({ type: "postgres" }));
  try {
    return createOpenApiDocument(app);
  } finally {
    await app.close();
  }
}
