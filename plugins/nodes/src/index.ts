export { type NodesConfig, NodesConfigSchema } from "./config.js";
export { type NodeHost, type NodeInfo, notSupported, type PairingRequest } from "./host.js";
export { deviceHealth, deviceInfo, deviceStatus } from "./local/device.js";
export { LocalNodeHost, type LocalNodeHostOptions, type LocalNotification } from "./local/local-host.js";
export {
  createNodesPlugin,
  NO_NODE_HOST,
  type NodesPluginOptions,
  nodesPlugin,
  nodesPlugin as default,
} from "./plugin.js";
export { createNodesTool, NODES_ACTIONS, nodesSchema } from "./tools/nodes.js";
