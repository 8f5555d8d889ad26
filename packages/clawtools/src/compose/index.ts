// composeBundle: one configuration (what `clawtools serve --config` reads) → one tool bundle.
export {
  type Bundle,
  bundleContext,
  type BundlePlugin,
  type ComposeOptions,
  composeBundle,
  type FollowingToolset,
  type SessionToolset,
} from "./compose.js";
export { type AcpHarness, type BundleConfig, type ResolvedBundleConfig, readBundleConfig } from "./config.js";
export { BUNDLE_CONFIG_SCHEMA_FILE, BUNDLE_KEYS, bundleConfigSchema } from "./config-schema.js";
export type { BundleDescription, ToolSource } from "./describe.js";
export { BundleConfigError, isBundleConfigError } from "./errors.js";
export { checkGatewayUrl } from "./gateway-options.js";
export { GATEWAY_SECTIONS, gatewayIdentityFile } from "./gateway.js";
export type { PluginEntry } from "./plugin-entries.js";
export { checkStoreUrl, redactStoreUrl } from "./store-url.js";
export { type BundleStore, describeState, openBundleStore, STORE_CONNECT_TIMEOUT_MS } from "./store.js";
export { NO_MODEL_FOR_AGENT_TURN, type OperatorPolicy, runPolicy, runToolset } from "./subagents.js";
export { type Clawtools, createClawtools } from "../discover.js";
