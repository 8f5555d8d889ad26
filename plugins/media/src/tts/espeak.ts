import { randomBytes } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { which } from "../which.js";
import { EXT, type SpeechAudio, type SpeechProvider, type SpeechRequest } from "./provider.js";
import { runProgram } from "./run.js";

export interface EspeakOptions {
  /** espeak-ng voice (default en-us). */
  voice?: string;
  /** Words per minute (default 175). */
  rate?: number;
  env?: NodeJS.ProcessEnv;
}

/**
 * Speech with no account: Debian's espeak-ng writes WAV (text on stdin, never on the command
 * line); opusenc turns it into Ogg-Opus for voice notes and lame into MP3, when they are
 * installed. Without the encoder the WAV itself is returned.
 */
export function createEspeakProvider(options: EspeakOptions = {}): SpeechProvider {
  const env = options.env ?? process.env;
  return {
    id: "espeak",
    unavailable: () =>
      which("espeak-ng", env) ? undefined : "espeak-ng is not installed (apt-get install espeak-ng)",
    async synthesize(request: SpeechRequest): Promise<SpeechAudio> {
      const espeak = which("espeak-ng", env);
      if (!espeak) throw new Error("not configured");
      const base = path.join(request.workDir, `espeak-${randomBytes(6).toString("hex")}`);
      const wav = `${base}.wav`;
      const run = { timeoutMs: request.timeoutMs, ...(request.signal ? { signal: request.signal } : {}) };
      try {
        await runProgram(
          espeak,
          ["-v", options.voice ?? "en-us", "-s", String(options.rate ?? 175), "-w", wav],
          {
            ...run,
            input: request.text,
          },
        );
        const encoder =
          request.format === "opus"
            ? which("opusenc", env)
            : request.format === "mp3"
              ? which("lame", env)
              : undefined;
        if (!encoder) return { data: await readFile(wav), format: "wav", ext: EXT.wav };
        const out = `${base}${EXT[request.format]}`;
        const args = request.format === "opus" ? ["--quiet", wav, out] : ["--quiet", wav, out];
        await runProgram(encoder, args, run);
        return { data: await readFile(out), format: request.format, ext: EXT[request.format] };
      } finally {
        await rm(wav, { force: true });
        await rm(`${base}${EXT.opus}`, { force: true });
        await rm(`${base}${EXT.mp3}`, { force: true });
      }
    },
  };
}
