import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";
import type { ArgumentType, CallableContractFuture, ContractCallFuture, Future } from "@nomicfoundation/ignition-core";
import { PLATFORM_MODULE_ID, PlanAddress, PlanEventArg, type PlanContract, type PlanValue, type PlatformPlan } from "@raffle/chain";

/**
 * The platform as a Hardhat Ignition module, built from the same plan `deployPlatform` runs (libs/chain's
 * platformPlan): every contract is a future named after it, every call a future named after its step. Ignition
 * journals each one, so an interrupted deployment resumes where it stopped and a changed setting is refused as a
 * conflict instead of deploying again. `npm run deploy:platform` builds it from checked settings.
 */
export function platformModule(plan: PlatformPlan) {
  return buildModule(PLATFORM_MODULE_ID, (m) => {
    const contracts = new Map<PlanContract, CallableContractFuture<string>>();
    const calls = new Map<string, ContractCallFuture<string, string>>();
    if (plan.coordinator) contracts.set("VrfCoordinator", m.contractAt("IVRFSubscriptionV2Plus", plan.coordinator, { id: "VrfCoordinator" }));

    const resolve = (value: PlanValue): ArgumentType => {
      if (value instanceof PlanAddress) return contracts.get(value.contract)!;
      if (value instanceof PlanEventArg) {
        return m.readEventArgument(calls.get(value.step)!, value.event, value.arg, {
          emitter: contracts.get(value.emitter)!,
          id: `${value.step}_${value.arg}`,
        });
      }
      if (Array.isArray(value)) return value.map(resolve);
      if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, resolve(field)]));
      return value;
    };

    // Calls run one after another, in the plan's order (each needs the previous one's effect on chain).
    let previous: Future | undefined;
    for (const step of plan.steps) {
      if (step.kind === "deploy") {
        const future = m.contract(step.contract, step.args.map(resolve), { id: step.contract });
        contracts.set(step.contract, future);
        if (step.contract === "VRFCoordinatorV2_5Mock") contracts.set("VrfCoordinator", future);
      } else {
        const future = m.call(contracts.get(step.contract)!, step.method, step.args.map(resolve), {
          id: step.id,
          after: previous ? [previous] : [],
        });
        calls.set(step.id, future);
        previous = future;
      }
    }
    return {
      exchange: contracts.get("Exchange")!,
      ticketDeployer: contracts.get("RaffleTicketDeployer")!,
      raffleFactory: contracts.get("RaffleFactory")!,
    };
  });
}
