import type { Server } from "node:http";
import { delay } from "@clawtools/core/time";

/** The ollama plugin's address is fixed in its source. */
export const OLLAMA_PORT = 11434;

/**
 * Listens on 127.0.0.1:11434. Test files run side by side and two of them fake Ollama there, so a
 * port another file holds is waited for (each holds it for one call) instead of failing.
 */
export async function listenOnOllamaPort(server: Server, waitMs = 120_000): Promise<void> {
  const until = Date.now() + waitMs;
  for (;;) {
    const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      const onError = (e: NodeJS.ErrnoException) => resolve(e);
      server.once("error", onError);
      server.listen(OLLAMA_PORT, "127.0.0.1", () => {
        server.off("error", onError);
        resolve(undefined);
      });
    });
    if (!error) return;
    if (error.code !== "EADDRINUSE" || Date.now() > until) throw error;
    await delay(100);
  }
}
