// Hardhat tasks of this project. Each file registers its tasks at load (with the config) and imports the code that
// needs generated bindings only inside the task actions, after compiling.
import "./deploy";
import "./roles";
import "./settings";
import "./keystore";
import "./verify";
import "./portable-cache";
import "./signer-rotation";
