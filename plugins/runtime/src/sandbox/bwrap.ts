import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, realpathSync, statSync } from "node:fs";
import path from "node:path";

/** Directories whose contents commands in the sandbox never see (sockets, other users' files). */
const ALWAYS_HIDDEN = ["/tmp", "/var/tmp", "/run", "/var/run", "/root", "/home", "/mnt", "/media"];
/** Credential files named by the environment, hidden wherever they are. */
const SECRET_FILE_VARS = [
  "AWS_SHARED_CREDENTIALS_FILE",
  "AWS_CONFIG_FILE",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "KUBECONFIG",
  "DOCKER_CONFIG",
  "AZURE_CONFIG_DIR",
  "SSH_AUTH_SOCK",
  "GNUPGHOME",
  "NETRC",
];
/** Directories never hidden as "the workspace's siblings": the system itself. */
const SYSTEM_DIRS = new Set([
  "/",
  "/usr",
  "/etc",
  "/opt",
  "/var",
  "/srv",
  "/bin",
  "/sbin",
  "/lib",
  "/lib64",
  "/nix",
  "/snap",
]);

/** bubblewrap on PATH (or its usual places), executable. */
export function findBwrap(searchPath = process.env.PATH ?? ""): string | undefined {
  for (const dir of [...searchPath.split(":").filter(Boolean), "/usr/bin", "/bin", "/usr/local/bin"]) {
    const file = path.join(dir, "bwrap");
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

const probes = new Map<string, string | undefined>();

/** Why bubblewrap cannot run a command here (namespaces refused inside a container…), or undefined. */
export function probeBwrap(bwrap: string): string | undefined {
  if (probes.has(bwrap)) return probes.get(bwrap);
  const run = spawnSync(
    bwrap,
    [
      "--die-with-parent",
      "--unshare-all",
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--",
      "/bin/true",
    ],
    { encoding: "utf8", timeout: 20_000 },
  );
  const problem =
    run.error || run.status !== 0
      ? `bubblewrap does not run here: ${(run.error?.message ?? run.stderr ?? "").trim().split("\n")[0] || `exit ${run.status}`}`
      : undefined;
  probes.set(bwrap, problem);
  return problem;
}

export interface BwrapPlan {
  workspaceDir: string;
  cwd: string;
  home?: string;
  stateDir?: string;
  /** Files to make visible read-only (the proxy bridge, its socket, node). */
  expose: string[];
  /** Keep the controlling terminal (PTY runs); otherwise a new session (no TIOCSTI). */
  keepTerminal: boolean;
  env?: NodeJS.ProcessEnv;
}

const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};
const inside = (child: string, parent: string) => child === parent || child.startsWith(`${parent}/`);

/**
 * The bubblewrap arguments: every namespace unshared (no network at all: the proxy bridge is the
 * only way out), the system read-only, the workspace read-write, and hidden behind empty tmpfs
 * mounts: home directories, temp and runtime directories (where sockets live), the state
 * directory, the workspace's siblings (other workspaces) and credential files the environment names.
 */
export function bwrapArgs(plan: BwrapPlan): string[] {
  const env = plan.env ?? process.env;
  const workspace = plan.workspaceDir;
  const hidden = new Set<string>(ALWAYS_HIDDEN.filter(isDir));
  if (plan.home && !SYSTEM_DIRS.has(plan.home) && isDir(plan.home)) hidden.add(plan.home);
  if (plan.stateDir && isDir(plan.stateDir) && !inside(workspace, plan.stateDir)) hidden.add(plan.stateDir);
  const parent = path.dirname(workspace);
  if (!SYSTEM_DIRS.has(parent) && isDir(parent)) hidden.add(parent);
  const args = ["--die-with-parent", "--unshare-all", ...(plan.keepTerminal ? [] : ["--new-session"])];
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  // shorter paths first: a tmpfs must not cover one mounted after it
  const covers = [...hidden].filter((d) => !inside(d, workspace)).sort((a, b) => a.length - b.length);
  for (const dir of covers) {
    // a symlink (/var/run → /run) is covered by its target
    if (realOrSelf(dir) !== dir) continue;
    args.push("--tmpfs", dir);
  }
  for (const name of SECRET_FILE_VARS) {
    const file = env[name];
    if (!file || !path.isAbsolute(file) || !existsSync(file) || inside(file, workspace)) continue;
    if ([...hidden].some((d) => inside(file, d))) continue;
    args.push(isDir(file) ? "--tmpfs" : "--ro-bind", ...(isDir(file) ? [file] : ["/dev/null", file]));
  }
  args.push("--bind", workspace, workspace);
  for (const file of plan.expose) args.push("--ro-bind", file, file);
  args.push("--chdir", plan.cwd);
  return args;
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
