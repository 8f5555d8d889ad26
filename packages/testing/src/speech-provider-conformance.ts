import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "./vitest-api.js";
import type { ConformanceOptions } from "./sessions-conformance.js";

/*
 * Conformance suite for the `SpeechProvider` seam of @clawtools/media (what the `tts` tool speaks
 * through): a local engine, a CLI, an HTTP API. Any provider runs it:
 *
 *   speechProviderConformance(() => ({ provider: createMyProvider() }));
 *
 * The factory is called once per test. The audio's bytes are checked against the format the
 * provider claims (RIFF/WAVE, OggS, an MP3 frame or ID3 tag), and two texts must not give the
 * same audio, so canned output does not pass.
 */

type SpeechFormat = "opus" | "mp3" | "wav";

/** What `SpeechProvider` promises (structurally). */
export interface SpeechProviderUnderTest {
  id: string;
  unavailable(): string | undefined;
  synthesize(request: {
    text: string;
    format: SpeechFormat;
    timeoutMs: number;
    signal?: AbortSignal;
    workDir: string;
  }): Promise<{ data: Buffer; format: SpeechFormat; ext: string }>;
}

export interface SpeechProviderUnderTestSetup {
  provider: SpeechProviderUnderTest;
  /** The formats to ask for (default all three; a provider may answer another it can make). */
  formats?: SpeechFormat[];
}

type Factory<T> = () => T | Promise<T>;
const EXT: Record<SpeechFormat, string> = { opus: ".ogg", mp3: ".mp3", wav: ".wav" };

/** The format the bytes really are, by their magic numbers. */
export function sniffSpeechFormat(data: Buffer): SpeechFormat | undefined {
  if (
    data.length >= 12 &&
    data.toString("latin1", 0, 4) === "RIFF" &&
    data.toString("latin1", 8, 12) === "WAVE"
  )
    return "wav";
  if (data.toString("latin1", 0, 4) === "OggS") return "opus";
  if (data.toString("latin1", 0, 3) === "ID3") return "mp3";
  if (data.length >= 2 && data[0] === 0xff && (data[1]! & 0xe0) === 0xe0) return "mp3";
  return undefined;
}

/** Declares the SpeechProvider conformance suite for the providers `factory` makes. */
export function speechProviderConformance(
  factory: Factory<SpeechProviderUnderTestSetup>,
  options: ConformanceOptions = {},
): void {
  describe(options.name ?? "SpeechProvider conformance", () => {
    const ready = async (ctx: { skip(note?: string): never }) => {
      const setup = await factory();
      const why = setup.provider.unavailable();
      if (why !== undefined) ctx.skip(`provider unavailable here: ${why}`);
      const workDir = await mkdtemp(path.join(tmpdir(), "speech-conformance-"));
      return { ...setup, workDir, done: () => rm(workDir, { recursive: true, force: true }) };
    };

    it("has a well-formed id and says why when it cannot run (a string), else undefined", async () => {
      const { provider } = await factory();
      expect(provider.id).toMatch(/^[a-z][a-z0-9_-]*$/);
      const why = provider.unavailable();
      expect(why === undefined || (typeof why === "string" && why.length > 0)).toBe(true);
    });

    it("answers each format asked for with audio whose bytes are the format it claims", async (ctx) => {
      const { provider, formats = ["wav", "mp3", "opus"], workDir, done } = await ready(ctx);
      for (const format of formats) {
        const audio = await provider.synthesize({
          text: "Conformance check.",
          format,
          timeoutMs: 60_000,
          workDir,
        });
        expect(audio.data.length, format).toBeGreaterThan(44);
        expect(sniffSpeechFormat(audio.data), `asked ${format}, claimed ${audio.format}`).toBe(audio.format);
        expect(audio.ext).toBe(EXT[audio.format]);
      }
      await done();
    });

    it("speaks the text it is given: two texts give different audio, the longer one more of it", async (ctx) => {
      const { provider, formats = ["wav"], workDir, done } = await ready(ctx);
      const format = formats[0] ?? "wav";
      const short = await provider.synthesize({ text: "Hi.", format, timeoutMs: 60_000, workDir });
      const long = await provider.synthesize({
        text: "This sentence is much longer than the other one and takes a while to say.",
        format,
        timeoutMs: 60_000,
        workDir,
      });
      expect(Buffer.compare(short.data, long.data)).not.toBe(0);
      expect(long.data.length).toBeGreaterThan(short.data.length);
      await done();
    });

    it("leaves no scratch files behind in workDir", async (ctx) => {
      const { provider, formats = ["wav", "mp3", "opus"], workDir, done } = await ready(ctx);
      for (const format of formats)
        await provider.synthesize({ text: "Tidy up.", format, timeoutMs: 60_000, workDir });
      expect(await readdir(workDir)).toEqual([]);
      await done();
    });

    it("an aborted signal rejects the call", async (ctx) => {
      const { provider, workDir, done } = await ready(ctx);
      const controller = new AbortController();
      controller.abort(new Error("conformance abort"));
      await expect(
        provider.synthesize({
          text: "Never spoken.",
          format: "wav",
          timeoutMs: 60_000,
          signal: controller.signal,
          workDir,
        }),
      ).rejects.toThrow();
      await done();
    });
  });
}
