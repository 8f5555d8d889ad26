import { randomBytes } from "node:crypto";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { which } from "../which.js";
import {
  EXT,
  type SpeechAudio,
  type SpeechFormat,
  type SpeechProvider,
  type SpeechRequest,
} from "./provider.js";
import { runProgram } from "./run.js";

export interface CliSpeechOptions {
  /** The program (absolute path or a name on PATH). */
  command: string;
  /** Arguments; `{{TEXT_FILE}}` and `{{OUTPUT_FILE}}` are replaced by paths. */
  args: string[];
  /** What the program writes (default wav). */
  outputFormat?: SpeechFormat;
}

/**
 * Any local engine the user configures (piper, kokoro, say…): the text goes to a file, the
 * program writes the audio to another; no shell is involved, so the text can never become a
 * command.
 */
export function createCliSpeechProvider(options: CliSpeechOptions): SpeechProvider {
  const format = options.outputFormat ?? "wav";
  return {
    id: "cli",
    unavailable: () => (which(options.command) ? undefined : `${options.command} not found`),
    async synthesize(request: SpeechRequest): Promise<SpeechAudio> {
      const program = which(options.command);
      if (!program) throw new Error("not configured");
      const base = path.join(request.workDir, `cli-${randomBytes(6).toString("hex")}`);
      const textFile = `${base}.txt`;
      const outFile = `${base}${EXT[format]}`;
      await writeFile(textFile, request.text);
      try {
        const args = options.args.map((a) =>
          a.replaceAll("{{TEXT_FILE}}", textFile).replaceAll("{{OUTPUT_FILE}}", outFile),
        );
        await runProgram(program, args, {
          timeoutMs: request.timeoutMs,
          ...(request.signal ? { signal: request.signal } : {}),
        });
        const data = await readFile(outFile).catch(() => {
          throw new Error(`${options.command} wrote no audio to {{OUTPUT_FILE}}`);
        });
        if (data.length === 0) throw new Error(`${options.command} wrote an empty file`);
        return { data, format, ext: EXT[format] };
      } finally {
        await rm(textFile, { force: true });
        await rm(outFile, { force: true });
      }
    },
  };
}
