import { createExecTool, ProcessRegistry } from "@clawtools/runtime";
const registry = new ProcessRegistry();
const exec = createExecTool({ workspaceDir: process.cwd() }, { registry });
for (let i = 0; i < 2000; i++) await exec.execute("b", { command: "true" });
