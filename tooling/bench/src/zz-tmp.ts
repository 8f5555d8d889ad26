import { createBashTool } from "@mariozechner/pi-coding-agent";
import { createExecTool, ProcessRegistry } from "@clawtools/runtime";
import { execa } from "execa";
import { timeInTurns } from "./harness.js";
const cwd = process.cwd();
const registry = new ProcessRegistry();
const exec = createExecTool({ workspaceDir: cwd }, { registry });
const bash = createBashTool(cwd);
const env = { ...process.env } as Record<string, string>;
for (let k = 0; k < 3; k++) {
  const t = await timeInTurns(
    {
      execaMin: () =>
        execa("/bin/sh", ["-c", "true"], {
          cwd,
          env,
          extendEnv: false,
          detached: true,
          stdin: "ignore",
          buffer: false,
          reject: false,
          stripFinalNewline: false,
        }),
      exec: () => exec.execute("b", { command: "true" }),
      pi: () => bash.execute("b", { command: "true" }),
    },
    600,
  );
  console.log(
    JSON.stringify(t),
    "exec/pi",
    (t.exec / t.pi).toFixed(3),
    "exec/execaMin",
    (t.exec / t.execaMin).toFixed(3),
  );
}
registry.killAll();
