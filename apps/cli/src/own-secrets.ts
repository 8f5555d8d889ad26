import { withholdEnv } from "@clawtools/core";

/** Variables serve reads as its own credentials, whatever their value. */
const OWN_SECRET_NAMES = [
  "PGPASSWORD",
  "PGPASSFILE",
  "OPENCLAW_GATEWAY_TOKEN",
  "OPENCLAW_GATEWAY_PASSWORD",
  "CLAWTOOLS_MCP_TOKEN",
];
/** Provider keys (OPENAI_API_KEY, HF_TOKEN…): the models serve calls are serve's, not a command's. */
const PROVIDER_KEY = /(?:^|_)API_?KEY$|^HF_TOKEN$/i;

/**
 * Leaves serve's own secrets out of the environment of exec, background processes and sub-agent
 * harnesses: the store's password (PGPASSWORD, and any variable holding the --store URL or its
 * password), the Gateway's and `--http`'s tokens, and provider keys, except the names the config's
 * `passEnv` passes on.
 */
export function withholdOwnSecrets(
  env: NodeJS.ProcessEnv,
  own: { storeUrl?: string; tokens?: Array<string | undefined>; passEnv?: string[] },
): string[] {
  const values = [...(own.tokens ?? [])];
  if (own.storeUrl) {
    values.push(own.storeUrl);
    try {
      const url = new URL(own.storeUrl);
      if (url.password) values.push(decodeURIComponent(url.password));
      const query = url.searchParams.get("password");
      if (query) values.push(query);
    } catch {
      // checked before: a store URL that does not parse was refused
    }
  }
  const secrets = values.filter((v): v is string => typeof v === "string" && v.length >= 4);
  const pass = new Set((own.passEnv ?? []).map((n) => n.toUpperCase()));
  const names = Object.entries(env)
    .filter(
      ([name, value]) =>
        OWN_SECRET_NAMES.includes(name.toUpperCase()) ||
        PROVIDER_KEY.test(name) ||
        (value !== undefined && secrets.some((s) => value.includes(s))),
    )
    .map(([name]) => name)
    .filter((name) => !pass.has(name.toUpperCase()));
  withholdEnv([...OWN_SECRET_NAMES.filter((n) => !pass.has(n)), ...names]);
  return names;
}
