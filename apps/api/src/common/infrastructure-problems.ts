import {
  ChainNotServedError,
  ChainUnavailableError,
  DependencyUnavailableError,
  ExchangePausedError,
  SignerNotAuthorizedError,
} from "../services/errors";
import { problems, type ApiProblem } from "./problem";

/**
 * The edge of the infrastructure's errors (services/errors.ts): the catalogue's problem each becomes, with the same
 * code; undefined for any other error. The problem filter asks it, so the services never speak HTTP.
 */
export function infrastructureProblem(error: unknown): ApiProblem | undefined {
  if (error instanceof ChainNotServedError) return problems.chainNotServed(error.chainId, [...error.served]);
  if (error instanceof SignerNotAuthorizedError) return problems.signerNotAuthorized(error.signer, error.exchange);
  if (error instanceof ChainUnavailableError) return problems.chainUnavailable();
  if (error instanceof ExchangePausedError) return problems.exchangePaused();
  if (error instanceof DependencyUnavailableError) return problems.serviceUnavailable(error.dependency);
  return undefined;
}
