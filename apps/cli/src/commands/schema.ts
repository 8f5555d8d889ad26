import { PROVIDER_IDS, type ProviderId, toProviderTools } from "@clawtools/core/providers";
import type { CommonOptions } from "../options.js";
import { buildToolset } from "../toolset.js";
import { UsageError } from "../usage-error.js";

export async function schemaCommand(options: CommonOptions, out: (line: string) => void): Promise<number> {
  const provider = options.provider;
  if (!provider) throw new UsageError(`schema needs --provider (${PROVIDER_IDS.join(", ")})`);
  const set = await buildToolset(options, { profile: "coding" });
  try {
    out(
      JSON.stringify(toProviderTools(set.tools, provider as ProviderId, { strict: options.strict }), null, 2),
    );
    return 0;
  } finally {
    await set.close();
  }
}
