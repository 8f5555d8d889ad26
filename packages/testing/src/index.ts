export { type ContractReport, checkPluginContract, checkToolContract } from "./contract.js";
