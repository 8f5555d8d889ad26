export {
  type ContractReport,
  checkPluginContract,
  checkToolContract,
  type ToolContractOptions,
} from "./contract.js";
