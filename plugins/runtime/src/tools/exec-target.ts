import { ToolAuthorizationError, ToolInputError } from "@clawtools/core";
import type { ExecAsk, ExecSecurity } from "../security/policy.js";

/** What a call or the configuration names as the place to run. */
export type ExecTarget = "auto" | "sandbox" | "gateway" | "node";
/** Where a call actually runs: gateway is this machine. */
export type ExecHostKind = "sandbox" | "gateway" | "node";
/** Elevated runs: off (refused), ask (this machine, approvals as usual), full (no approvals). */
export type ElevatedLevel = "off" | "ask" | "full";

const allowedOverride = (configured: ExecTarget, requested: ExecTarget, sandboxAvailable: boolean) => {
  if (requested === configured) return true;
  // auto may be narrowed, but a configured sandbox may not be escaped to this machine or a node
  if (configured === "auto") return !(sandboxAvailable && (requested === "gateway" || requested === "node"));
  return false;
};

/**
 * OpenClaw's host resolution: the configured target (default auto) wins unless it is auto;
 * auto means the sandbox when one is configured, else this machine; elevated runs leave the
 * sandbox for this machine (or stay on the chosen node).
 */
export function resolveExecHost(params: {
  configured: ExecTarget;
  requested: ExecTarget | undefined;
  elevated: boolean;
  sandboxAvailable: boolean;
  nodeAvailable: boolean;
}): ExecHostKind {
  const { configured, sandboxAvailable } = params;
  const requested = params.requested === "auto" ? undefined : params.requested;
  if (requested && !allowedOverride(configured, requested, sandboxAvailable)) {
    const allowed =
      configured === "auto" && sandboxAvailable
        ? [requested]
        : requested === "gateway" && !sandboxAvailable
          ? ["gateway", "auto"]
          : [requested, "auto"];
    throw new ToolAuthorizationError(
      `exec host not allowed (requested ${requested}; configured host is ${configured}; set exec.host=${[...new Set(allowed)].join(" or ")} to allow this override).`,
    );
  }
  const selected = requested ?? configured;
  let host: ExecHostKind;
  if (params.elevated) host = selected === "node" ? "node" : "gateway";
  else if (selected === "auto") host = sandboxAvailable ? "sandbox" : "gateway";
  else host = selected;
  if (host === "sandbox" && !sandboxAvailable) {
    throw new ToolInputError(
      "exec host=sandbox requires a sandbox runtime for this session. Pass an ExecHost as runtime option exec.hosts.sandbox, or use host=auto/gateway/node.",
    );
  }
  if (host === "node" && !params.nodeAvailable) {
    throw new ToolInputError(
      "exec host=node requires a node host. Pass an ExecHost as runtime option exec.hosts.node, or use host=auto/gateway.",
    );
  }
  return host;
}

/** An elevated call under the configured level: refused when off; full drops every approval. */
export function applyElevated(
  level: ElevatedLevel,
  policy: { security: ExecSecurity; ask: ExecAsk },
): { security: ExecSecurity; ask: ExecAsk } {
  if (level === "off") {
    throw new ToolAuthorizationError(
      'elevated exec is not enabled. Set runtime option exec.elevated to "ask" (run on this machine with approvals) or "full" (no approvals) to allow it.',
    );
  }
  return level === "full" ? { security: "full", ask: "off" } : policy;
}
