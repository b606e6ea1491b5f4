// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {IVRFCoordinatorV2Plus} from "@chainlink/contracts/src/v0.8/vrf/dev/interfaces/IVRFCoordinatorV2Plus.sol";

import {Asset, Params} from "../../src/libraries/Assets.sol";
import {IRaffle, VrfConfig} from "../../src/interfaces/IRaffle.sol";
import {IRaffleFactory} from "../../src/interfaces/IRaffleFactory.sol";
import {IRaffleTicket} from "../../src/interfaces/IRaffleTicket.sol";
import {IExchange} from "../../src/interfaces/IExchange.sol";

// The suite deploys the contracts from Hardhat's artifacts (the bytecode Hardhat tests and deploys), so it talks to
// them through these interfaces: the project's own interfaces plus the functions only the contracts declare.

interface IRaffleX is IRaffle, IAccessControl {
    function ROUND_MANAGER_ROLE() external view returns (bytes32);
    function MAX_COMMISSION() external view returns (uint256);
}

/// @dev IRaffleTicket is an IERC721 itself.
interface IRaffleTicketX is IRaffleTicket {}

interface IRaffleFactoryX is IRaffleFactory, IAccessControl {
    function MERCHANT_ROLE() external view returns (bytes32);
    function raffleCount() external view returns (uint256);
    function drawsPerDay() external view returns (uint256);
    function MIN_DRAWS_PER_DAY() external view returns (uint256);
    function drawsUsedToday(address merchant) external view returns (uint256);
    function proposeVrfConfig(VrfConfig calldata vrf) external;
    function applyVrfConfig() external;
    function cancelVrfConfigProposal() external;
    function createVrfSubscription() external returns (uint256);
    function pendingVrfConfig() external view returns (VrfConfig memory vrf, uint256 effectiveAt);
    function setPriceToken(address token, bool allowed) external;
    function setDrawsPerDay(uint256 newDrawsPerDay) external;
}

interface IExchangeX is IExchange, IAccessControl {
    function SIGNER_ROLE() external view returns (bytes32);
    function PAUSER_ROLE() external view returns (bytes32);
    function pause() external;
    function unpause() external;
    function paused() external view returns (bool);
    function rotateSigner(address oldSigner, address newSigner) external;
    function domainSeparator() external view returns (bytes32);
}

/// @notice Chainlink's VRFCoordinatorV2_5Mock beyond the coordinator interface.
interface IVRFMock is IVRFCoordinatorV2Plus {
    function fundSubscription(uint256 subId, uint256 amount) external;
    function fulfillRandomWordsWithOverride(uint256 requestId, address consumer, uint256[] memory words) external;
}

/// @notice The test tokens: TestToken (MINTER_ROLE mints), the hostile tokens of src/test/HostileTokens.sol (anyone
/// mints), TestCollectible (an ERC721). NoReturnToken's approve/transfer return nothing, so it is only ever called
/// with low-level calls.
interface ITokenX {
    function balanceOf(address account) external view returns (uint256);
    function mint(address to, uint256 amount) external;
    function approve(address spender, uint256 amount) external returns (bool);
    function transfer(address to, uint256 amount) external returns (bool);
    function setBlocked(address account, bool isBlocked) external;
    function blocked(address account) external view returns (bool);
}

interface IHasRole {
    function grantRole(bytes32 role, address account) external;
}

/// @notice A coordinator a hostile merchant deploys: it "answers" any raffle with the words it chooses.
contract FakeCoordinator {
    function answer(address factory, uint256 requestId, uint256 word) external returns (bool ok, bytes memory data) {
        uint256[] memory words = new uint256[](1);
        words[0] = word;
        (ok, data) = factory.call(abi.encodeCall(IRaffleFactory.rawFulfillRandomWords, (requestId, words)));
    }
}
