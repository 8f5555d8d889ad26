/**
 * Runs inside the sandbox, where there is no network: listens on the sandbox's own loopback,
 * carries every connection to the egress proxy's unix socket (bound in read-only), and runs
 * the command with the proxy variables pointing at it. Its exit is the command's.
 */
export const BRIDGE_SOURCE = `import { connect, createServer } from "node:net";
import { spawn } from "node:child_process";
const [socketPath, shell, ...args] = process.argv.slice(2);
const server = createServer((client) => {
  const upstream = connect(socketPath);
  const end = () => { client.destroy(); upstream.destroy(); };
  client.on("error", end).on("close", end);
  upstream.on("error", end).on("close", end);
  client.pipe(upstream).pipe(client);
});
server.listen(0, "127.0.0.1", () => {
  const url = "http://127.0.0.1:" + server.address().port;
  const env = { ...process.env, HTTP_PROXY: url, HTTPS_PROXY: url, ALL_PROXY: url, http_proxy: url, https_proxy: url, all_proxy: url };
  delete env.NO_PROXY;
  delete env.no_proxy;
  const child = spawn(shell, args, { stdio: "inherit", env });
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"]) process.on(signal, () => child.kill(signal));
  child.on("error", (error) => { process.stderr.write(String(error.message) + "\\n"); process.exit(127); });
  child.on("exit", (code, signal) => {
    server.close();
    if (signal) { process.removeAllListeners(signal); process.kill(process.pid, signal); }
    process.exit(code ?? 1);
  });
});
`;
