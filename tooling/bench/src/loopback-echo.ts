import { type ChildProcess, spawn } from "node:child_process";
import { connect, type Socket } from "node:net";

/** A Node child that echoes whatever arrives on a loopback TCP port (Nagle off on both ends). */
const SERVER = `const s=require("node:net").createServer((c)=>{c.setNoDelay(true);c.on("data",(d)=>c.write(d))});
s.listen(0,"127.0.0.1",()=>process.stdout.write(String(s.address().port)+"\\n"));`;

/**
 * The physical floor of any operation that asks another process on this machine: one round trip
 * of 64 bytes over loopback TCP to a Node child that only echoes them, nothing parsed or stored.
 */
export interface LoopbackEcho {
  roundTrip(): Promise<void>;
  stop(): void;
}

export async function startLoopbackEcho(): Promise<LoopbackEcho> {
  const child: ChildProcess = spawn(process.execPath, ["-e", SERVER], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.stdout?.once("data", (chunk: Buffer) => resolve(Number(String(chunk).trim())));
  });
  const socket: Socket = connect(port, "127.0.0.1");
  socket.setNoDelay(true);
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const payload = Buffer.alloc(64, "x");
  return {
    roundTrip: () =>
      new Promise<void>((resolve) => {
        let got = 0;
        const onData = (chunk: Buffer) => {
          got += chunk.length;
          if (got < payload.length) return;
          socket.off("data", onData);
          resolve();
        };
        socket.on("data", onData);
        socket.write(payload);
      }),
    stop: () => {
      socket.destroy();
      child.kill();
    },
  };
}
