import { createClawtools } from "../discover.js";
import { bundleConfigSchema } from "./config-schema.js";

/**
 * The schema published as clawtools.schema.json: the bundle's keys and every section's own
 * configuration schema, from the sections' live code (each imported, then disposed).
 */
export async function publishedConfigSchema(): Promise<Record<string, unknown>> {
  const clawtools = await createClawtools();
  try {
    return {
      $schema: "http://json-schema.org/draft-07/schema#",
      $id: "https://unpkg.com/clawtools/clawtools.schema.json",
      ...bundleConfigSchema(clawtools.tools.plugins()),
    };
  } finally {
    await clawtools.tools.dispose();
  }
}
