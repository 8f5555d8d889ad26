/** A speech engine. `synthesize` returns encoded audio; errors are thrown with a short reason. */
export interface SpeechProvider {
  id: string;
  /** Why the provider cannot run here (missing binary, key or command), or undefined when it can. */
  unavailable(): string | undefined;
  synthesize(request: SpeechRequest): Promise<SpeechAudio>;
}

export type SpeechFormat = "opus" | "mp3" | "wav";

export interface SpeechRequest {
  text: string;
  /** The format wanted; a provider that cannot make it returns what it can (and says so). */
  format: SpeechFormat;
  timeoutMs: number;
  signal?: AbortSignal;
  /** A scratch directory for the provider's temporary files. */
  workDir: string;
}

export interface SpeechAudio {
  data: Buffer;
  format: SpeechFormat;
  /** File extension with the dot (.ogg for Opus). */
  ext: string;
}

export const EXT: Record<SpeechFormat, string> = { opus: ".ogg", mp3: ".mp3", wav: ".wav" };
