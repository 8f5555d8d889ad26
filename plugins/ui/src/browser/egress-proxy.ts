// The egress proxy is core's (the sandboxed exec uses it too); the browser imports it from here.
export { BLOCKED_HEADER, EgressProxy, type EgressProxyOptions } from "@clawtools/core/safety";
