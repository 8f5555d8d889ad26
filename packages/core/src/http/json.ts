import type { Static, TSchema } from "@sinclair/typebox";
import { schemaIssues } from "../validate.js";
import { HttpError } from "./http-error.js";
import { type HttpRequestOptions, type HttpResponse, httpRequest } from "./request.js";

export interface HttpJsonOptions<S> extends Omit<HttpRequestOptions, "throwOnStatus"> {
  /** The shape the answer must have: a TypeBox schema or any JSON Schema (checked by core's validator). */
  schema: S;
}

/** The answer checked against `schema`: an HttpError (kind `json` or `schema`) when it is not what was promised. */
export function checkJsonBody<S extends TSchema | object>(
  response: HttpResponse,
  schema: S,
  target: string,
): S extends TSchema ? Static<S> : unknown {
  const base = { status: response.status, target, attempts: response.attempts };
  let data: unknown;
  try {
    data = JSON.parse(response.text());
  } catch {
    throw new HttpError(`${target} returned invalid JSON`, { ...base, kind: "json" });
  }
  const issues = schemaIssues(schema, data);
  if (issues.length > 0)
    throw new HttpError(`${target} returned an unexpected response:\n${issues.join("\n")}`, {
      ...base,
      kind: "schema",
      issues,
    });
  return data as never;
}

/**
 * {@link httpRequest} for a JSON API: a 2xx answer parsed and checked against `schema`, anything
 * else an {@link HttpError}. The schema's root must be an object (as core's validator requires).
 */
export async function httpJson<S extends TSchema | object>(
  url: string,
  options: HttpJsonOptions<S>,
): Promise<S extends TSchema ? Static<S> : unknown> {
  const { schema, ...rest } = options;
  const headers = rest.headers;
  const response = await httpRequest(url, {
    ...rest,
    headers: (attempt) => ({
      accept: "application/json",
      ...(typeof headers === "function" ? headers(attempt) : headers),
    }),
  });
  return checkJsonBody(response, schema, options.label ?? new URL(url).origin);
}
