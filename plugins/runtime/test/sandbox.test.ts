/**
 * runtime.sandbox on a real bubblewrap: an escape suite run through the exec tool. Everything a
 * command could reach is set up for real (a fake home with an SSH key, a state directory, a
 * sibling workspace, a socket, an HTTP server) and checked from the outside afterwards.
 */
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createNetServer, type Server as NetServer } from "node:net";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { networkInterfaces } from "node:os";
import path from "node:path";
import { type CallNotes, runWithCallNotes } from "@clawtools/core/wrap";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createExecTool,
  type createProcessTool,
  createRuntimePlugin,
  ExecSandbox,
  ProcessRegistry,
} from "../src/index.js";
import { text, waitFor } from "./helpers.js";

// /var/tmp, not /tmp: the sandbox hides both, and the suite checks the files from the host
const root = mkdtempSync("/var/tmp/clawtools-sandbox-suite-");
const workspaceDir = path.join(root, "ws");
const sibling = path.join(root, "other-ws");
const home = mkdtempSync("/var/tmp/clawtools-sandbox-home-");
const stateDir = mkdtempSync("/var/tmp/clawtools-sandbox-state-");
const outsideDir = mkdtempSync("/var/tmp/clawtools-sandbox-out-");
const victim = path.join(outsideDir, "victim.txt");
const socketPath = path.join(outsideDir, "service.sock");
const abstractName = `\0clawtools-sandbox-${process.pid}`;
mkdirSync(workspaceDir);
mkdirSync(sibling);
mkdirSync(path.join(home, ".ssh"));
writeFileSync(path.join(home, ".ssh", "id_ed25519"), "PRIVATE-KEY-MATERIAL\n");
writeFileSync(path.join(sibling, "secret.txt"), "SIBLING-SECRET\n");
writeFileSync(path.join(stateDir, "approvals.json"), "STATE-SECRET\n");
writeFileSync(victim, "original\n");
writeFileSync(path.join(workspaceDir, "notes.txt"), "inside\n");
symlinkSync(victim, path.join(workspaceDir, "link"));

const savedHome = process.env.HOME;
const hits: string[] = [];
let http: Server;
let port = 0;
const sockets: NetServer[] = [];
let socketConnections = 0;
const plugin = createRuntimePlugin({ sandbox: "bwrap" });
let exec: ReturnType<typeof createExecTool>;

beforeAll(async () => {
  process.env.HOME = home;
  http = createHttpServer((req, res) => {
    hits.push(req.url ?? "");
    res.end("hello from the host\n");
  });
  await new Promise<void>((resolve) => http.listen(0, "0.0.0.0", resolve));
  port = (http.address() as { port: number }).port;
  for (const where of [socketPath, abstractName]) {
    const server = createNetServer((c) => {
      socketConnections++;
      c.end("SOCKET-REACHED\n");
    });
    await new Promise<void>((resolve) => server.listen(where, resolve));
    sockets.push(server);
  }
  exec = plugin.tools
    .find((t) => t.names.includes("exec"))!
    .factory({
      workspaceDir,
      stateDir,
      // web_fetch's rules: only "localhost" among private destinations
      config: { web: { fetch: { ssrfPolicy: { allowedHostnames: ["localhost"] } } } },
    }) as ReturnType<typeof createExecTool>;
});

afterAll(async () => {
  process.env.HOME = savedHome;
  await plugin.dispose();
  await new Promise((resolve) => http.close(resolve));
  for (const s of sockets) s.close();
  for (const dir of [root, home, stateDir, outsideDir]) rmSync(dir, { recursive: true, force: true });
});

const run = async (command: string, extra: Record<string, unknown> = {}) => {
  try {
    const result = await exec.execute("t", { command, ...extra });
    return { out: text(result), details: result.details };
  } catch (error) {
    return { out: (error as Error).message, details: undefined };
  }
};

const hostAddress = () =>
  Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === "IPv4" && !a.internal)?.address ?? "127.0.0.1";

describe("exec in bubblewrap", () => {
  it("the workspace is writable and the result says where it ran", async () => {
    // what a server traces: the sandbox the call ran in, noted for its span
    const notes: CallNotes = new Map();
    const { out, details } = await runWithCallNotes(notes, () =>
      run("echo made > made.txt && cat notes.txt"),
    );
    expect(out).toContain("inside");
    expect(details?.sandbox).toBe("bwrap");
    expect(notes.get("sandbox")).toBe("bwrap");
    expect(readFileSync(path.join(workspaceDir, "made.txt"), "utf8")).toBe("made\n");
  });

  it("writes outside the workspace never reach the host: read-only system, hidden elsewhere, .. and symlinks", async () => {
    await run(
      `touch /usr/clawtools-sandbox-marker; echo x > ${victim}; echo x > link; touch ../escape; touch ${sibling}/planted`,
    );
    expect(existsSync("/usr/clawtools-sandbox-marker")).toBe(false);
    expect(readFileSync(victim, "utf8")).toBe("original\n");
    expect(existsSync(path.join(root, "escape"))).toBe(false);
    expect(existsSync(path.join(sibling, "planted"))).toBe(false);
    const { out } = await run("touch /usr/clawtools-sandbox-marker");
    expect(out).toMatch(/Read-only file system/);
  });

  it("secrets stay unseen: ~/.ssh, the state directory, other workspaces", async () => {
    const { out } = await run(
      `cat ~/.ssh/id_ed25519 ${home}/.ssh/id_ed25519 ${stateDir}/approvals.json ${sibling}/secret.txt; ls -a ~`,
    );
    expect(out).not.toContain("PRIVATE-KEY-MATERIAL");
    expect(out).not.toContain("STATE-SECRET");
    expect(out).not.toContain("SIBLING-SECRET");
    // the same command unsandboxed reads them: the suite would catch a sandbox that does nothing
    const bare = createExecTool({ workspaceDir }, { registry: plugin.registry });
    expect(text(await bare.execute("t", { command: `cat ${home}/.ssh/id_ed25519` }))).toContain(
      "PRIVATE-KEY-MATERIAL",
    );
  });

  it("the network is only the egress proxy under web_fetch's URL policy", async () => {
    const allowed = await run(`curl -sS --max-time 20 http://localhost:${port}/allowed`);
    expect(allowed.out).toContain("hello from the host");
    const rawIp = await run(`curl -sS --max-time 20 http://127.0.0.1:${port}/raw-ip`);
    expect(rawIp.out).toMatch(/403|Blocked by the sandbox's URL policy/);
    const host = hostAddress();
    const named = await run(`curl -sS --max-time 20 http://${host}:${port}/other-host`);
    expect(named.out).toMatch(/403|Blocked/);
    const direct = await run(`curl -sS --noproxy '*' --max-time 10 http://${host}:${port}/direct`);
    expect(direct.out).not.toContain("hello from the host");
    expect(hits).toEqual(["/allowed"]);
  });

  it("unix sockets outside the workspace, file or abstract, are out of reach", async () => {
    const script = (where: string) =>
      `node -e 'const c=require("net").connect(${JSON.stringify(where)});c.on("data",d=>process.stdout.write(d));c.on("error",e=>console.log("ERR",e.code))'`;
    const { out } = await run(`${script(socketPath)}; ${script(abstractName)}`);
    expect(out).not.toContain("SOCKET-REACHED");
    expect(socketConnections).toBe(0);
  });

  it("background runs are sandboxed too", async () => {
    const started = await exec.execute("t", {
      command: `cat ${home}/.ssh/id_ed25519; echo done-bg`,
      background: true,
    });
    const id = (started.details as { sessionId: string }).sessionId;
    const processTool = plugin.tools
      .find((t) => t.names.includes("process"))!
      .factory({ workspaceDir }) as ReturnType<typeof createProcessTool>;
    let log = "";
    await waitFor(() => {
      void processTool.execute("p", { action: "log", sessionId: id }).then((r) => {
        log = text(r);
      });
      return log.includes("done-bg");
    }, 60_000);
    expect(log).toContain("done-bg");
    expect(log).not.toContain("PRIVATE-KEY-MATERIAL");
  }, 90_000);

  it("PTY runs are sandboxed too, with their terminal", async () => {
    const { out, details } = await run(
      `cat ${home}/.ssh/id_ed25519; test -t 1 && echo is-a-terminal; echo pty-done`,
      {
        pty: true,
      },
    );
    expect(out).toContain("is-a-terminal");
    expect(out).toContain("pty-done");
    expect(out).not.toContain("PRIVATE-KEY-MATERIAL");
    expect(details?.sandbox).toBe("bwrap");
  });

  it("under ask=on-miss an allowlist miss runs inside the sandbox without an approval", async () => {
    const strict = plugin.tools
      .find((t) => t.names.includes("exec"))!
      .factory({
        workspaceDir,
        stateDir,
        config: { runtime: { exec: { security: "allowlist", ask: "on-miss" } } },
      }) as ReturnType<typeof createExecTool>;
    const result = await strict.execute("t", { command: "ls notes.txt | wc -l" });
    expect(text(result)).toContain("1");
    // without the sandbox the same miss needs an approval, and there is no handler
    const bare = createRuntimePlugin()
      .tools.find((t) => t.names.includes("exec"))!
      .factory({
        workspaceDir,
        config: { runtime: { exec: { security: "allowlist", ask: "on-miss" } } },
      }) as ReturnType<typeof createExecTool>;
    await expect(bare.execute("t", { command: "ls notes.txt | wc -l" })).rejects.toThrow(/needs approval/);
  });
});

describe("sandboxNetwork: off", () => {
  it("starts no bridge and reaches nothing, the host's files as hidden as with the proxy", async () => {
    const offline = createRuntimePlugin({ sandbox: "bwrap", sandboxNetwork: "off" });
    const tool = offline.tools
      .find((t) => t.names.includes("exec"))!
      .factory({ workspaceDir, stateDir }) as ReturnType<typeof createExecTool>;
    const result = await tool.execute("t", {
      command: `curl -sS --max-time 5 http://localhost:${port}/offline; cat ${home}/.ssh/id_ed25519; echo offline-done`,
    });
    expect(text(result)).toContain("offline-done");
    expect(text(result)).not.toContain("PRIVATE-KEY-MATERIAL");
    expect(text(result)).not.toContain("hello from the host");
    expect(hits).not.toContain("/offline");
    await offline.dispose();
  });
});

describe("sandbox auto where bubblewrap cannot run", () => {
  it("runs unsandboxed and says so at start and in every result", async () => {
    const broken = path.join(outsideDir, "bwrap");
    writeFileSync(broken, "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n");
    chmodSync(broken, 0o755);
    const lines: string[] = [];
    const sandbox = new ExecSandbox({ mode: "auto", bwrapPath: broken, warn: (l) => lines.push(l) });
    expect(sandbox.active).toBe(false);
    expect(lines).toEqual([
      "clawtools runtime: none (sandbox auto: bubblewrap does not run here: bwrap: No permissions to create new namespace; commands run unsandboxed)",
    ]);
    const registry = new ProcessRegistry();
    const tool = createExecTool({ workspaceDir }, { registry, sandbox });
    const ok = await tool.execute("t", { command: "echo plain" });
    expect(ok.details.sandbox).toMatch(/^none \(sandbox auto: bubblewrap does not run here/);
    await expect(tool.execute("t", { command: "clawtools-no-such-program" })).rejects.toThrow(
      /\(sandbox: none \(sandbox auto:/,
    );
    expect(() => new ExecSandbox({ mode: "bwrap", bwrapPath: broken })).toThrow(
      /sandbox: "bwrap" is required but bubblewrap does not run here/,
    );
    registry.killAll();
  });
});
