import type { AnyAgentTool, JsonSchema } from "@clawtools/core";
import { type ClientChannel, type ElicitAnswer, requireClient } from "@clawtools/core/client";
import { pause } from "./tools.js";

const NO_ARGUMENTS: JsonSchema = { type: "object", properties: {} };
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const stringField = (description?: string) => ({ type: "string", ...(description ? { description } : {}) });
const form = (properties: Record<string, JsonSchema>, required: string[] = []) => ({
  type: "object",
  properties,
  ...(required.length ? { required } : {}),
});
const answered = (a: ElicitAnswer) => `action=${a.action}, content=${JSON.stringify(a.content ?? {})}`;
const sampledText = (a: { content: { text?: string } }) => a.content.text ?? "";

/** A fixture tool that talks to the client of its call (none outside MCP: it says so and fails). */
function clientTool(
  name: string,
  description: string,
  execute: (client: ClientChannel, params: Record<string, unknown>, signal?: AbortSignal) => Promise<string>,
  extra: Partial<AnyAgentTool> = {},
): AnyAgentTool {
  return {
    name,
    description,
    parameters: NO_ARGUMENTS,
    ...extra,
    execute: async (_id, params: Record<string, unknown>, signal) =>
      text(await execute(requireClient(name), params, signal)),
  };
}

const withString = (key: string, description: string): Partial<AnyAgentTool> => ({
  parameters: { type: "object", properties: { [key]: { type: "string", description } }, required: [key] },
});

const askName = (client: ClientChannel, key: string, message = "What is your name?") =>
  client.elicit({ message, requestedSchema: form({ name: stringField() }, ["name"]) }, { key });

/** Logs three info messages ~50 ms apart (tools-call-with-logging; server-stateless' test_logging_tool). */
async function threeLogs(client: ClientChannel, signal?: AbortSignal): Promise<string> {
  client.log("info", "Tool execution started");
  await pause(50, signal);
  client.log("info", "Tool processing data");
  await pause(50, signal);
  client.log("info", "Tool execution completed");
  return "Logging test completed: 3 messages sent";
}

/**
 * The fixture tools of the suite's scenarios that need the client of a call: logging
 * (tools-call-with-logging), sampling and elicitation (tools-call-*, elicitation-sep1034/1330),
 * the multi-round-trip `input_required` flows (input-required-result-*), the MRTR → task
 * composition (tasks-mrtr-composition) and server-stateless' diagnostic tools. Each asks through
 * `ClientChannel` alone: the server decides how (server-to-client requests or `input_required`).
 */
export function conformanceClientTools(): AnyAgentTool[] {
  return [
    clientTool("test_tool_with_logging", "Sends 3 info log messages ~50 ms apart", (c, _p, s) =>
      threeLogs(c, s),
    ),
    clientTool(
      "test_logging_tool",
      "Sends 3 info log messages (only at a log level the request set)",
      (c, _p, s) => threeLogs(c, s),
    ),
    clientTool(
      "test_sampling",
      "Asks the client's model to answer `prompt` (sampling/createMessage)",
      async (client, params) => {
        const answer = await client.sample({
          messages: [{ role: "user", content: { type: "text", text: String(params.prompt) } }],
          maxTokens: 100,
        });
        return `LLM response: ${sampledText(answer)}`;
      },
      withString("prompt", "The prompt to send to the LLM"),
    ),
    clientTool(
      "test_elicitation",
      "Asks the user for a username and an email, showing `message`",
      async (client, params) => {
        const answer = await client.elicit({
          message: String(params.message),
          requestedSchema: form(
            { username: stringField("User's response"), email: stringField("User's email address") },
            ["username", "email"],
          ),
        });
        return `User response: ${answered(answer)}`;
      },
      withString("message", "The message to show the user"),
    ),
    clientTool(
      "test_elicitation_sep1034_defaults",
      "Asks with a default for every primitive type",
      async (c) => {
        const answer = await c.elicit({
          message: "Please review and update the form fields with defaults",
          requestedSchema: form({
            name: { type: "string", description: "User name", default: "John Doe" },
            age: { type: "integer", description: "User age", default: 30 },
            score: { type: "number", description: "User score", default: 95.5 },
            status: {
              type: "string",
              description: "User status",
              enum: ["active", "inactive", "pending"],
              default: "active",
            },
            verified: { type: "boolean", description: "Verification status", default: true },
          }),
        });
        return `Elicitation completed: ${answered(answer)}`;
      },
    ),
    clientTool("test_elicitation_sep1330_enums", "Asks with the five enum forms of SEP-1330", async (c) => {
      const answer = await c.elicit({
        message: "Please select options from the enum fields",
        requestedSchema: form({
          untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
          titledSingle: {
            type: "string",
            oneOf: [
              { const: "value1", title: "First Option" },
              { const: "value2", title: "Second Option" },
              { const: "value3", title: "Third Option" },
            ],
          },
          legacyEnum: {
            type: "string",
            enum: ["opt1", "opt2", "opt3"],
            enumNames: ["Option One", "Option Two", "Option Three"],
          },
          untitledMulti: {
            type: "array",
            items: { type: "string", enum: ["option1", "option2", "option3"] },
          },
          titledMulti: {
            type: "array",
            items: {
              anyOf: [
                { const: "value1", title: "First Choice" },
                { const: "value2", title: "Second Choice" },
                { const: "value3", title: "Third Choice" },
              ],
            },
          },
        }),
      });
      return `Elicitation completed: ${answered(answer)}`;
    }),
    ...inputRequiredTools(),
  ];
}

const capitalQuestion = (client: ClientChannel, key: string, question: string, maxTokens = 100) =>
  client.sample(
    { messages: [{ role: "user", content: { type: "text", text: question } }], maxTokens },
    { key },
  );

/** The tools of input-required-result-*, tasks-mrtr-composition and server-stateless. */
function inputRequiredTools(): AnyAgentTool[] {
  return [
    clientTool("test_input_required_result_elicitation", "Asks the user's name, then greets", async (c) => {
      const answer = await askName(c, "user_name");
      return `Hello, ${String(answer.content?.name ?? "stranger")}!`;
    }),
    clientTool("test_input_required_result_sampling", "Asks the client's model a question", async (c) => {
      const answer = await capitalQuestion(c, "capital_question", "What is the capital of France?");
      return `The model answered: ${sampledText(answer)}`;
    }),
    clientTool("test_input_required_result_list_roots", "Reads the client's roots", async (c) => {
      const roots = await c.listRoots({ key: "client_roots" });
      return `Client roots: ${roots.map((r) => r.uri).join(", ")}`;
    }),
    clientTool(
      "test_input_required_result_request_state",
      "Asks a confirmation across a signed state",
      async (c) => {
        const answer = await c.elicit(
          { message: "Please confirm", requestedSchema: form({ ok: { type: "boolean" } }, ["ok"]) },
          { key: "confirm" },
        );
        // an answer reaches the tool only with the state its question was sent with, verified
        return `state-ok: confirmed ${answered(answer)}`;
      },
    ),
    clientTool(
      "test_input_required_result_tampered_state",
      "Asks a confirmation (its state is signed)",
      async (c) => {
        const answer = await c.elicit(
          { message: "Please confirm", requestedSchema: form({ ok: { type: "boolean" } }, ["ok"]) },
          { key: "confirm" },
        );
        return `confirmed: ${answered(answer)}`;
      },
    ),
    clientTool(
      "test_input_required_result_multiple_inputs",
      "Asks a name, a greeting and the roots at once",
      async (c) => {
        const [name, greeting, roots] = await Promise.all([
          askName(c, "user_name"),
          capitalQuestion(c, "greeting", "Generate a greeting", 50),
          c.listRoots({ key: "client_roots" }),
        ]);
        return `name=${String(name.content?.name)}, greeting=${sampledText(greeting)}, roots=${roots.length}`;
      },
    ),
    clientTool("test_input_required_result_multi_round", "Asks a name, then a colour", async (c) => {
      const name = await askName(c, "step1", "Step 1: What is your name?");
      const color = await c.elicit(
        {
          message: "Step 2: What is your favorite color?",
          requestedSchema: form({ color: stringField() }, ["color"]),
        },
        { key: "step2" },
      );
      return `${String(name.content?.name)} likes ${String(color.content?.color)}`;
    }),
    clientTool("test_input_required_result_capabilities", "Asks only what the client declared", async (c) => {
      const asks: Array<Promise<string>> = [];
      if (c.supports("elicitation")) asks.push(askName(c, "user_name").then(answered));
      if (c.supports("sampling"))
        asks.push(capitalQuestion(c, "capital_question", "What is 2+2?").then(sampledText));
      if (c.supports("roots"))
        asks.push(c.listRoots({ key: "client_roots" }).then((r) => `${r.length} roots`));
      return `answers: ${(await Promise.all(asks)).join("; ")}`;
    }),
    clientTool("test_missing_capability", "Needs the client's sampling capability", async (c) => {
      const answer = await capitalQuestion(c, "question", "Say hello");
      return `The model answered: ${sampledText(answer)}`;
    }),
    clientTool(
      "test_streaming_elicitation",
      "Asks the user's name (never a request on the response stream)",
      async (c) => {
        const answer = await askName(c, "user_name");
        return `Hello, ${String(answer.content?.name)}!`;
      },
    ),
    clientTool(
      "test_tool_with_task",
      "Asks the user's name, then greets from a task (input first, then the task)",
      async (c, _p, signal) => {
        const answer = await askName(c, "user_name");
        await pause(200, signal);
        return `Hello from the task, ${String(answer.content?.name)}!`;
      },
      { taskSupport: "required", asksBeforeTask: true },
    ),
  ];
}
