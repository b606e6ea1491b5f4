// SPDX-License-Identifier: MIT
pragma solidity ^0.8.19;

// Compiles Chainlink's VRF v2.5 coordinator mock so tests and local chains can deploy it.
import {VRFCoordinatorV2_5Mock} from "@chainlink/contracts/src/v0.8/vrf/mocks/VRFCoordinatorV2_5Mock.sol";
