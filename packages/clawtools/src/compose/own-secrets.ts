import { withholdEnv } from "@clawtools/core/safety";

/** Variables the bundle (and serve) reads as its own credentials, whatever their value. */
const OWN_SECRET_NAMES = [
  "PGPASSWORD",
  "PGPASSFILE",
  "OPENCLAW_GATEWAY_TOKEN",
  "OPENCLAW_GATEWAY_PASSWORD",
  "CLAWTOOLS_MCP_TOKEN",
];
/** Provider keys (OPENAI_API_KEY, HF_TOKEN…): the models the bundle calls are its own, not a command's. */
const PROVIDER_KEY = /(?:^|_)API_?KEY$|^HF_TOKEN$/i;

/**
 * Leaves the bundle's own secrets out of the environment of exec, background processes and
 * sub-agent harnesses while it is open: the store's password (PGPASSWORD, and any variable holding
 * the store URL or its password), the Gateway's token (and any the caller names, serve's `--http`
 * token), and provider keys, except the names `passEnv` passes on. Returns the release.
 */
export function withholdOwnSecrets(
  env: NodeJS.ProcessEnv,
  own: { storeUrl?: string; tokens?: Array<string | undefined>; passEnv?: string[] },
): () => void {
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
  return withholdEnv([...OWN_SECRET_NAMES.filter((n) => !pass.has(n)), ...names]);
}
