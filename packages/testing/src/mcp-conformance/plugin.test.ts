import { inflateSync } from "node:zlib";
import { createToolset } from "@clawtools/core";
import { describe, expect, it } from "vitest";
import { checkPluginContract } from "../contract.js";
import { ARG1_VALUES, CONFORMANCE_ERROR_TEXT, CONFORMANCE_TOOL_NAMES, plugin, STATIC_TEXT } from "./index.js";

const toolset = () => createToolset({ plugins: [plugin] });

describe("@clawtools/testing/mcp-conformance", () => {
  it("keeps the plugin contract (as serve --plugin checks it)", async () => {
    expect(await checkPluginContract(plugin, {})).toEqual({ ok: true, problems: [] });
    expect(CONFORMANCE_TOOL_NAMES).toEqual([
      "test_simple_text",
      "test_image_content",
      "test_audio_content",
      "test_embedded_resource",
      "test_multiple_content_types",
      "test_error_handling",
      "test_tool_with_progress",
      "greet",
      "slow_compute",
      "failing_job",
      "protocol_error_job",
      "confirm_delete",
      "multi_input",
      "test_tool_with_logging",
      "test_logging_tool",
      "test_sampling",
      "test_elicitation",
      "test_elicitation_sep1034_defaults",
      "test_elicitation_sep1330_enums",
      "test_input_required_result_elicitation",
      "test_input_required_result_sampling",
      "test_input_required_result_list_roots",
      "test_input_required_result_request_state",
      "test_input_required_result_tampered_state",
      "test_input_required_result_multiple_inputs",
      "test_input_required_result_multi_round",
      "test_input_required_result_capabilities",
      "test_missing_capability",
      "test_streaming_elicitation",
      "test_tool_with_task",
      "json_schema_2020_12_tool",
      "test_header_param",
    ]);
  });

  it("a tool that asks its client fails with one clear line when the call has none (library use)", async () => {
    const { tools } = toolset();
    const result = await tools.find((t) => t.name === "test_sampling")!.execute("c", { prompt: "hi" });
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain(
      "test_sampling needs to ask its MCP client, and this call has none: call it through an MCP server (clawtools serve)",
    );
    expect(text).not.toContain("    at ");
  });

  it("answers as the suite's reference server does", async () => {
    const { tools } = toolset();
    const call = (name: string, onUpdate?: (p: unknown) => void) =>
      tools.find((t) => t.name === name)!.execute(`call-${name}`, {}, undefined, onUpdate);

    expect((await call("test_simple_text")).content).toEqual([
      { type: "text", text: "This is a simple text response for testing." },
    ]);

    const [image] = (await call("test_image_content")).content;
    expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
    const png = Buffer.from((image as { data: string }).data, "base64");
    expect(png.subarray(1, 4).toString("ascii")).toBe("PNG");
    // IHDR says 1×1 RGB; IDAT inflates to one scanline: filter 0, then red
    expect([png.readUInt32BE(16), png.readUInt32BE(20), png[25]]).toEqual([1, 1, 2]);
    const idat = png.indexOf("IDAT");
    expect([...inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)))]).toEqual([
      0, 255, 0, 0,
    ]);

    const [audio] = (await call("test_audio_content")).content;
    expect(audio).toMatchObject({ type: "audio", mimeType: "audio/wav" });
    const wav = Buffer.from((audio as { data: string }).data, "base64");
    expect([wav.toString("ascii", 0, 4), wav.toString("ascii", 8, 12), wav.readUInt32LE(4) + 8]).toEqual([
      "RIFF",
      "WAVE",
      wav.length,
    ]);

    const failed = await call("test_error_handling");
    expect(failed.isError).toBe(true);
    expect(failed.details).toMatchObject({ status: "error", error: CONFORMANCE_ERROR_TEXT });

    const updates: unknown[] = [];
    const done = await call("test_tool_with_progress", (p) => updates.push(p));
    expect(updates).toEqual(
      [1, 2, 3].map((n) => ({ content: [{ type: "text", text: `Completed step ${n} of 3` }] })),
    );
    expect(done.content).toEqual([{ type: "text", text: "Progress test completed: 3 steps" }]);
  });

  it("stops the progress tool when the call is aborted", async () => {
    const { tools } = toolset();
    const abort = new AbortController();
    let updates = 0;
    const run = tools
      .find((t) => t.name === "test_tool_with_progress")!
      .execute("aborted", {}, abort.signal, () => {
        updates += 1;
        abort.abort();
      });
    // the wrap pipeline reports an abort as an AbortError (the MCP server answers "Aborted")
    await expect(run).rejects.toThrow(/Aborted/);
    expect(updates).toBe(1);
  });

  it("serves the suite's fixture resources, template and embedded resources", async () => {
    const { tools, resources } = toolset();
    expect((await resources.list()).map((r) => r.uri)).toEqual([
      "test://static-text",
      "test://static-binary",
      "test://watched-resource",
    ]);
    expect(await resources.templates()).toEqual([
      expect.objectContaining({ uriTemplate: "test://template/{id}/data", mimeType: "application/json" }),
    ]);
    expect(await resources.read("test://static-text")).toEqual({
      uri: "test://static-text",
      mimeType: "text/plain",
      text: STATIC_TEXT,
    });
    const binary = await resources.read("test://static-binary");
    expect(Buffer.from(binary.blob!, "base64").subarray(1, 4).toString("ascii")).toBe("PNG");
    expect(JSON.parse((await resources.read("test://template/123/data")).text!)).toEqual({
      id: "123",
      templateTest: true,
      data: "Data for ID: 123",
    });
    await expect(resources.read("test://nonexistent")).rejects.toMatchObject({
      code: -32602,
      data: { uri: "test://nonexistent" },
    });
    const call = (name: string) => tools.find((t) => t.name === name)!.execute(`call-${name}`, {});
    expect((await call("test_embedded_resource")).content).toEqual([
      {
        type: "resource",
        resource: {
          uri: "test://embedded-resource",
          mimeType: "text/plain",
          text: "This is an embedded resource content.",
        },
      },
    ]);
    expect((await call("test_multiple_content_types")).content.map((b) => b.type)).toEqual([
      "text",
      "image",
      "resource",
    ]);
  });

  it("serves the suite's fixture prompts, with completion of arg1 and of the template's id", async () => {
    const { prompts, resources } = toolset();
    expect((await prompts.list()).map((p) => p.name)).toEqual([
      "test_simple_prompt",
      "test_prompt_with_arguments",
      "test_prompt_with_embedded_resource",
      "test_prompt_with_image",
    ]);
    expect((await prompts.get("test_simple_prompt")).messages).toEqual([
      { role: "user", content: { type: "text", text: "This is a simple prompt for testing." } },
    ]);
    expect(
      (await prompts.get("test_prompt_with_arguments", { arg1: "hello", arg2: "world" })).messages[0]
        ?.content,
    ).toEqual({ type: "text", text: "Prompt with arguments: arg1='hello', arg2='world'" });
    const embedded = await prompts.get("test_prompt_with_embedded_resource", { resourceUri: "test://x" });
    expect(embedded.messages[0]?.content).toMatchObject({ type: "resource", resource: { uri: "test://x" } });
    const [image] = (await prompts.get("test_prompt_with_image")).messages;
    expect(image?.content).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(
      (await prompts.complete("test_prompt_with_arguments", { argument: "arg1", value: "par" })).values,
    ).toEqual(ARG1_VALUES);
    expect(
      (await resources.complete("test://template/{id}/data", { argument: "id", value: "2" })).values,
    ).toEqual(["2"]);
  });
});
