import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type AgentToolResult, createToolset } from "@clawtools/core";
import { openInWorkspace } from "@clawtools/core/safety";
import { afterAll, describe, expect, it } from "vitest";
import { createMediaPlugin, type MediaPluginOptions } from "../src/plugin.js";
import { createEspeakProvider } from "../src/tts/espeak.js";
import { which } from "../src/which.js";
import { expectWire, fakeServer } from "./fake-server.js";

const text = (r: AgentToolResult<unknown>) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("");

function tts(options: MediaPluginOptions) {
  const workspace = mkdtempSync(path.join(tmpdir(), "tts-ws-"));
  const stateDir = mkdtempSync(path.join(tmpdir(), "tts-state-"));
  const set = createToolset({
    plugins: [createMediaPlugin(options)],
    context: { workspaceDir: workspace, stateDir },
    policy: { profile: "full" },
  });
  const tool = set.tools.find((t) => t.name === "tts");
  if (!tool) throw new Error(JSON.stringify(set.diagnostics));
  return {
    workspace,
    stateDir,
    call: (args: Record<string, unknown>) => tool.execute("t", args) as Promise<AgentToolResult<any>>,
  };
}

const audioBlock = (r: AgentToolResult<unknown>) =>
  r.content.find((c) => (c as { type: string }).type === "audio") as
    | { type: "audio"; data: string; mimeType: string }
    | undefined;
const errorText = (r: AgentToolResult<unknown>) => JSON.parse(text(r)).error as string;

const isOggOpus = (b: Buffer) =>
  b.subarray(0, 4).toString("latin1") === "OggS" &&
  b.subarray(0, 200).toString("latin1").includes("OpusHead");
const isMp3 = (b: Buffer) =>
  b.subarray(0, 3).toString("latin1") === "ID3" || (b[0] === 0xff && (b[1]! & 0xe0) === 0xe0);
const isWav = (b: Buffer) =>
  b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WAVE";

describe.skipIf(!which("espeak-ng"))("tts with espeak-ng (no account)", () => {
  const { call, stateDir, workspace } = tts({});

  it("writes Ogg-Opus voice notes for telegram and MP3 otherwise, in the workspace, and returns the audio", async () => {
    const voice = await call({ text: "Build finished.", channel: "telegram" });
    expect(voice.isError).toBeUndefined();
    const rel = voice.details.path as string;
    expect(rel).toMatch(/^\.clawtools\/tts\/voice-[0-9a-f-]{36}\.ogg$/);
    expect(text(voice)).toBe(`Generated audio reply. Saved as ${rel} in the workspace.`);
    expect(voice.details).toMatchObject({
      provider: "espeak",
      format: "opus",
      mimeType: "audio/ogg",
      media: { audioAsVoice: true },
    });
    expect(voice.details.audioPath).toBe(path.join(realpathSync(workspace), rel));
    const bytes = readFileSync(voice.details.audioPath);
    expect(isOggOpus(bytes)).toBe(true);
    expect(voice.details.bytes).toBe(bytes.length);
    // the same bytes reach the client as an audio block (MCP's audio content)
    expect(audioBlock(voice)).toEqual({
      type: "audio",
      data: bytes.toString("base64"),
      mimeType: "audio/ogg",
    });
    // message (media) and read open attachments through core's containment: the file passes it
    const opened = await openInWorkspace(workspace, rel, { mode: "read" });
    expect(opened.stat.size).toBe(bytes.length);
    await opened.close();
    const plain = await call({ text: "Build finished." });
    expect(plain.details.format).toBe("mp3");
    expect(plain.details.media.audioAsVoice).toBeUndefined();
    expect(isMp3(readFileSync(plain.details.audioPath))).toBe(true);
    expect(audioBlock(plain)?.mimeType).toBe("audio/mpeg");
    // provider scratch files stay under the state directory and are cleaned up
    expect(readdirSync(path.join(stateDir, "media", "tts-work"))).toEqual([]);
  });

  it("refuses empty or blank text before any provider runs", async () => {
    for (const empty of ["", "   "]) {
      const refused = await call({ text: empty });
      expect(refused.isError).toBe(true);
      expect(errorText(refused)).toBe("text required");
    }
  });

  it("gives 20 concurrent calls 20 distinct files", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call({ text: `Message number ${i}.` })),
    );
    expect(results.every((r) => r.isError === undefined)).toBe(true);
    const paths = new Set(results.map((r) => r.details.audioPath as string));
    expect(paths.size).toBe(20);
    for (const file of paths) expect(isMp3(readFileSync(file))).toBe(true);
  }, 120_000);

  it("refuses an out-of-range timeoutMs", async () => {
    const refused = await call({ text: "hello", timeoutMs: -1 });
    expect(refused.isError).toBe(true);
    expect(errorText(refused)).toBe(
      'Validation failed for tool "tts":\n  - timeoutMs: must be >= 1\n\nReceived arguments:\n{\n  "text": "hello",\n  "timeoutMs": -1\n}',
    );
  });

  it("makes real WAV when asked, and keeps text off the command line", async () => {
    const provider = createEspeakProvider();
    const audio = await provider.synthesize({
      text: "$(touch /tmp/pwned) -v xx",
      format: "wav",
      timeoutMs: 20_000,
      workDir: stateDir,
    });
    expect(isWav(audio.data)).toBe(true);
    expect(audio.data.length).toBeGreaterThan(1000);
  });

  it("refuses text over 4,096 characters", async () => {
    const long = await call({ text: "a".repeat(4097) });
    expect(long.isError).toBe(true);
    expect(text(long)).toBe("Text too long (4097 chars, max 4096)");
    expect(long.details).toEqual({ error: "Text too long (4097 chars, max 4096)" });
  });

  it("never writes or sweeps through a link that leads out of the workspace", async () => {
    const attacked = tts({});
    const outside = mkdtempSync(path.join(tmpdir(), "tts-outside-"));
    const old = path.join(outside, "voice-keep.mp3");
    writeFileSync(old, "not ours");
    utimesSync(old, new Date(0), new Date(0));
    symlinkSync(outside, path.join(attacked.workspace, ".clawtools"));
    const result = await attacked.call({ text: "hello" });
    expect(result.isError).toBe(true);
    expect(errorText(result)).toBe(
      `Symlink escapes sandbox root (${attacked.workspace}): .clawtools/tts -> ${outside}`,
    );
    expect(readdirSync(outside)).toEqual(["voice-keep.mp3"]);
  });

  it("removes its own audio older than retainHours, and nothing else", async () => {
    const first = await call({ text: "old" });
    const mine = first.details.audioPath as string;
    const other = path.join(path.dirname(mine), "notes.txt");
    writeFileSync(other, "keep");
    utimesSync(mine, new Date(0), new Date(0));
    utimesSync(other, new Date(0), new Date(0));
    await call({ text: "new" });
    expect(existsSync(mine)).toBe(false);
    expect(existsSync(other)).toBe(true);
  });

  it("runs a configured CLI engine with file placeholders", async () => {
    const cli = tts({
      tts: {
        providers: ["cli"],
        cli: {
          command: "espeak-ng",
          args: ["-f", "{{TEXT_FILE}}", "-w", "{{OUTPUT_FILE}}"],
          outputFormat: "wav",
        },
      },
    });
    const result = await cli.call({ text: "From the command line." });
    expect(result.details).toMatchObject({ provider: "cli", format: "wav", mimeType: "audio/wav" });
    expect(isWav(readFileSync(result.details.audioPath))).toBe(true);
  });
});

describe("tts over HTTP providers", async () => {
  const audio = Buffer.from("ID3fake-mp3-bytes");
  let failOpenAi = false;
  const server = await fakeServer((req, res) => {
    if (req.path === "/v1/audio/speech") {
      expectWire(
        req.method === "POST" && req.headers.authorization === "Bearer sk-test",
        "POST with Bearer key",
      );
      expectWire(
        req.json?.model && req.json.input && req.json.voice && req.json.response_format,
        "model, input, voice, response_format",
      );
      if (failOpenAi)
        return void res
          .writeHead(500, { "content-type": "application/json", "x-request-id": "req_1" })
          .end('{"error":"boom"}');
      return void res.writeHead(200, { "content-type": "audio/mpeg" }).end(audio);
    }
    const eleven = /^\/v1\/text-to-speech\/([^?]+)\?output_format=(\w+)$/.exec(req.path);
    if (eleven) {
      expectWire(req.headers["xi-api-key"] === "xi-test" && req.headers.accept, "xi-api-key and accept");
      expectWire(
        req.json?.text && req.json.model_id && req.json.voice_settings?.stability === 0.5,
        "text, model_id, voice_settings",
      );
      return void res.writeHead(200, { "content-type": "audio/mpeg" }).end(audio);
    }
    res.writeHead(404).end();
  });
  afterAll(() => server.close());

  it("speaks OpenAI's audio/speech and ElevenLabs' text-to-speech wire formats", async () => {
    const openai = tts({
      tts: {
        providers: ["openai"],
        openai: { apiKey: "sk-test", baseUrl: `${server.base}/v1`, voice: "nova" },
      },
    });
    const first = await openai.call({ text: "hello" });
    expect(first.details.provider).toBe("openai");
    expect(server.requests.at(-1)!.json).toEqual({
      model: "gpt-4o-mini-tts",
      input: "hello",
      voice: "nova",
      response_format: "mp3",
    });
    await openai.call({ text: "hello", channel: "discord" });
    expect(server.requests.at(-1)!.json.response_format).toBe("opus");
    const eleven = tts({
      tts: { providers: ["elevenlabs"], elevenlabs: { apiKey: "xi-test", baseUrl: server.base } },
    });
    const second = await eleven.call({ text: "hi", channel: "telegram" });
    expect(second.details).toMatchObject({ provider: "elevenlabs", format: "opus" });
    expect(server.requests.at(-1)!.path).toBe(
      "/v1/text-to-speech/pMsXgVXv3BLzUgSXRplE?output_format=opus_48000_64",
    );
    expect(readFileSync(second.details.audioPath).equals(audio)).toBe(true);
  });

  it("falls back in order and ends in OpenClaw's failure text", async () => {
    failOpenAi = true;
    const chain = tts({
      tts: {
        providers: ["openai", "piper", "cli"],
        openai: { apiKey: "sk-test", baseUrl: `${server.base}/v1` },
        cli: { command: "false", args: [] },
      },
    });
    const result = await chain.call({ text: "hello" });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      'TTS conversion failed: openai: OpenAI TTS API error (500): {"error":"boom"} [request_id=req_1]; piper: no provider registered; cli: false exited with 1',
    );
    expect(result.details.error).toBe(text(result));
    failOpenAi = false;
  });
});
