/**
 * A stdio JSON-RPC child as a host drives it, with no client library in between: spawn, the MCP
 * opening, calls one at a time, and what the process costs (CPU from /proc, RSS).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";

export type Answer = {
  id?: number;
  result?: { isError?: boolean; content?: Array<{ text?: string }>; tools?: unknown[] };
  error?: { message: string };
};

const INITIALIZE = {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "bench", version: "1" },
};

export class RpcChild {
  private next = 1;
  private buffer = "";
  private readonly waiting = new Map<number, (answer: Answer) => void>();
  private exited = false;

  private constructor(readonly child: ChildProcess) {
    child.stdout!.on("data", (chunk: Buffer) => {
      this.buffer += chunk.toString("utf8");
      for (let end = this.buffer.indexOf("\n"); end >= 0; end = this.buffer.indexOf("\n")) {
        const message = JSON.parse(this.buffer.slice(0, end)) as Answer;
        this.buffer = this.buffer.slice(end + 1);
        if (message.id !== undefined) this.waiting.get(message.id)?.(message);
      }
    });
    child.on("exit", () => {
      this.exited = true;
      for (const resolve of this.waiting.values()) resolve({ error: { message: "the process exited" } });
    });
  }

  /** `env`: added to this process's environment. */
  static spawn(args: string[], options: { env?: Record<string, string> } = {}): RpcChild {
    return new RpcChild(
      spawn(process.execPath, args, {
        stdio: ["pipe", "pipe", "ignore"],
        ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
      }),
    );
  }

  request(method: string, params: unknown = {}): Promise<Answer> {
    const id = this.next++;
    const answered = new Promise<Answer>((resolve) => this.waiting.set(id, resolve));
    this.child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    return answered.finally(() => this.waiting.delete(id));
  }

  notify(method: string): void {
    this.child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
  }

  /** A host's opening: initialize, then initialized and tools/list. */
  async open(): Promise<void> {
    await this.request("initialize", INITIALIZE);
    this.notify("notifications/initialized");
    await this.request("tools/list");
  }

  /** A tool call; throws when it fails (a bench that measures failures measures nothing). */
  async call(name: string, args: Record<string, unknown>): Promise<Answer> {
    const answer = await this.request("tools/call", { name, arguments: args });
    if (answer.error || answer.result?.isError)
      throw new Error(`${name} failed: ${JSON.stringify(answer).slice(0, 400)}`);
    return answer;
  }

  /** CPU the process (and the children it waited for) has used, in ms. */
  cpuMs(): number {
    const fields = readFileSync(`/proc/${this.child.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime, stime, cutime, cstime (fields 14-17) in clock ticks of 10 ms
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) * 10;
  }

  rssMb(): number {
    const line = readFileSync(`/proc/${this.child.pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
    return line ? Number(line[1]) / 1024 : Number.NaN;
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.stdin!.end();
    await gone;
  }
}
