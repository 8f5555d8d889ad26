import { randomUUID } from "node:crypto";
import { type AgentTool, jsonResult, ToolInputError } from "@clawtools/core";
import { resolveInWorkspace } from "@clawtools/core/safety";
import {
  attachmentLimits,
  materializeAttachments,
  removeAttachments,
  type SpawnAttachment,
} from "../attachments.js";
import type { SessionsEnv } from "../context.js";
import { trackFollowUp } from "../follow-ups.js";
import { AGENT_ID } from "../keys.js";
import { startChild } from "./spawn-child.js";
import { CHANNEL_FIELDS, SPAWN_NOTE, SPAWN_NOTE_PULL, sessionsSpawnSchema } from "./sessions-spawn-schema.js";

export {
  SPAWN_NOTE,
  SPAWN_NOTE_PULL,
  sessionsSpawnSchema,
  subagentMessage,
} from "./sessions-spawn-schema.js";

export function createSessionsSpawnTool(env: SessionsEnv): AgentTool<typeof sessionsSpawnSchema> {
  return {
    name: "sessions_spawn",
    // a long call: MCP clients may run it as a task
    taskSupport: "optional",
    label: "Spawn sub-agent",
    description: env.pull
      ? "Spawn a sub-agent that works on a task in its own session. Get its answer with sessions_yield, which waits until it finishes."
      : "Spawn a sub-agent that works on a task in its own session. Its result is announced back to this session automatically when it finishes.",
    parameters: sessionsSpawnSchema,
    async execute(_id, params) {
      const p = params as Record<string, unknown> & typeof params;
      const unknownChannel = CHANNEL_FIELDS.find((f) => p[f] !== undefined);
      if (unknownChannel)
        throw new ToolInputError(
          `sessions_spawn does not support "${unknownChannel}". Use "message" or "sessions_send" for channel delivery.`,
        );
      const extra = Object.keys(p).filter((k) => !(k in sessionsSpawnSchema.properties));
      if (extra.length > 0)
        throw new ToolInputError(`Unknown parameter for sessions_spawn: ${extra.join(", ")}`);
      if (p.lightContext && p.runtime === "acp")
        throw new ToolInputError("lightContext is only supported for runtime='subagent'.");
      const runtime = p.runtime === "acp" ? "acp" : "subagent";
      if (p.streamTo && runtime !== "acp")
        return jsonResult({
          status: "error",
          error: `streamTo is only supported for runtime=acp; got runtime=${runtime}`,
        });
      if (p.resumeSessionId && runtime !== "acp")
        return jsonResult({
          status: "error",
          error: `resumeSessionId is only supported for runtime=acp; got runtime=${runtime}`,
        });
      if (runtime === "acp" && p.attachments && p.attachments.length > 0)
        return jsonResult({
          status: "error",
          error:
            "attachments are currently unsupported for runtime=acp; use runtime=subagent or remove attachments",
        });
      const { service, config } = env;
      if (runtime === "acp" && p.streamTo === "parent")
        return jsonResult({
          status: "error",
          error:
            'streamTo="parent" is not supported by this sessions section; the ACP child announces its result when it finishes (omit streamTo).',
        });
      if (runtime === "acp") {
        if (!service.runner?.runtimes?.includes("acp"))
          return jsonResult({
            status: "error",
            error:
              "runtime=acp is not available here (no ACP harness configured: give the sessions section a runner with ACP sessions, e.g. withAcpSessions from @clawtools/runner-acp); use runtime=subagent.",
          });
        // a harness runs on the host, outside any sandbox: a sandboxed requester never reaches it
        if (env.sandboxed || p.sandbox === "require")
          return jsonResult({
            status: "forbidden",
            error: env.sandboxed
              ? "runtime=acp cannot be spawned from a sandboxed session (ACP harnesses run on the host); use runtime=subagent."
              : 'sandbox="require" is not supported for runtime=acp (ACP harnesses run on the host); use runtime=subagent.',
          });
      }
      // a cwd is checked for every runtime (only an ACP harness works in it): never outside the workspace
      let acpCwd: string | undefined;
      if (p.cwd !== undefined) {
        if (!env.workspaceDir)
          return jsonResult({
            status: "error",
            error: "cwd needs a workspace (the context has no workspaceDir)",
          });
        try {
          const resolved = await resolveInWorkspace(env.workspaceDir, p.cwd);
          if (runtime === "acp") acpCwd = resolved;
        } catch (error) {
          return jsonResult({
            status: "error",
            error: `cwd must be a directory inside the workspace: ${(error as Error).message}`,
          });
        }
      }
      const agentId = p.agentId ?? env.agentId;
      if (!AGENT_ID.test(agentId))
        return jsonResult({
          status: "error",
          error: `Invalid agentId "${agentId.slice(0, 80)}". Agent IDs must match [a-z0-9][a-z0-9_-]{0,63}. Use agents_list to discover valid targets.`,
        });
      const allowed = config.allowAgents ?? [];
      if (agentId !== env.agentId && !allowed.includes("*") && !allowed.includes(agentId))
        return jsonResult({
          status: "forbidden",
          error: `agentId is not allowed for sessions_spawn (allowed: ${[env.agentId, ...allowed].join(", ") || "none"})`,
        });
      if (p.mode === "session" && !p.thread)
        return jsonResult({
          status: "error",
          error: 'mode="session" requires thread=true so the subagent can stay bound to a thread.',
        });
      const admitted = await service.admit(env.callerKey, async () => {
        const caller = await service.ensure(env.callerKey, env.agentId);
        const maxDepth = config.maxSpawnDepth ?? 1;
        const depth = (caller.depth ?? 0) + 1;
        if (depth > maxDepth)
          return jsonResult({
            status: "forbidden",
            error: `sessions_spawn is not allowed at this depth (current depth: ${caller.depth ?? 0}, max: ${maxDepth})`,
          });
        const maxChildren = config.maxChildrenPerAgent ?? 5;
        // only live runs count: runs whose owner process is gone are ended as lost first
        await service.reapLost(env.callerKey);
        const running = (await service.runs.listByRequester(env.callerKey)).filter(
          (r) => r.status === "running",
        ).length;
        if (running >= maxChildren)
          return jsonResult({
            status: "forbidden",
            error: `sessions_spawn has reached max active children for this session (${running}/${maxChildren})`,
          });
        // the files are written once the spawn is allowed, before the child exists
        const files = await materializeAttachments({
          attachments: p.attachments as SpawnAttachment[] | undefined,
          limits: attachmentLimits(config),
          workspaceDir: env.workspaceDir,
          ...(p.attachAs?.mountPath ? { mountPath: p.attachAs.mountPath } : {}),
        });
        if (files && files.status !== "ok") return jsonResult({ status: files.status, error: files.error });
        const removeFiles = async () => {
          if (files && env.workspaceDir)
            await removeAttachments(env.workspaceDir, files.receipt.relDir).catch(() => {});
        };
        const started = await startChild(service, {
          childKey: `agent:${agentId}:${runtime}:${randomUUID()}`,
          agentId,
          requesterKey: env.callerKey,
          depth,
          maxDepth,
          params: p,
          files,
          removeFiles,
          ...(acpCwd ? { cwd: acpCwd } : {}),
        });
        if ("error" in started)
          return jsonResult({ status: "error", error: started.error, childSessionKey: started.childKey });
        const { run, watched } = started;
        return { run, watched, files, removeFiles };
      });
      if (!("run" in admitted)) return admitted;
      const { run, watched, files, removeFiles } = admitted;
      // cleanup "delete" always removes the files; "keep" keeps them only when configured to
      if (files && (run.cleanup === "delete" || !files.retainOnSessionKeep))
        trackFollowUp(service, watched.finally(removeFiles));
      else void watched;
      return jsonResult({
        status: "accepted",
        childSessionKey: run.childSessionKey,
        runId: run.runId,
        mode: p.mode ?? "run",
        // the push wording only where a push arrives (an in-process loop)
        note: env.pull ? SPAWN_NOTE_PULL : SPAWN_NOTE,
        ...(p.model ? { modelApplied: true } : {}),
        ...(files ? { attachments: files.receipt } : {}),
      });
    },
  };
}
