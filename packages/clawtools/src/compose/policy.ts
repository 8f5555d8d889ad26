import type { ToolRegistry, ToolsetPolicy } from "@clawtools/core";
import { getCoreToolDefinition, resolveCoreToolProfilePolicy } from "@clawtools/core/catalog";
import type { ResolvedBundleConfig } from "./config.js";

/** What createToolset takes besides the registry and context: provider, policy, owner. */
export interface BundleAssembly {
  provider?: string;
  policy: ToolsetPolicy;
  senderIsOwner: boolean;
}

/**
 * The bundle's policy: its profile, `allow` / `deny`, owner. `minimal` admits no plugin tool
 * through its profile (core keeps it to session_status), so with named plugins it is applied as an
 * allowlist layer that adds their tools; so is any profile when a named plugin took a section's
 * place (its core ids would follow the catalog).
 */
export function bundlePolicy(
  config: ResolvedBundleConfig,
  registry: ToolRegistry,
  named: ReadonlyArray<{ tools: string[] }>,
): BundleAssembly & { policy: ToolsetPolicy & { global?: { allow?: string[]; deny?: string[] } } } {
  const { profile } = config;
  const namedTools = named.flatMap((p) => p.tools);
  // a core id a named plugin took over that the profile would not serve
  const tookSection = namedTools.some(
    (name) =>
      getCoreToolDefinition(name) !== undefined &&
      profile !== undefined &&
      !(resolveCoreToolProfilePolicy(profile)?.allow ?? []).includes(name),
  );
  const minimalWithPlugins =
    namedTools.length > 0 &&
    profile !== undefined &&
    resolveCoreToolProfilePolicy(profile) !== undefined &&
    (profile === "minimal" || (tookSection && profile !== "full"));
  const profileTools = (id: string) => [
    ...(resolveCoreToolProfilePolicy(id)?.allow ?? []),
    ...(id === "minimal"
      ? []
      : registry
          .list()
          .filter((m) => m.source === "plugin" && (m.profiles as string[]).includes(id))
          .map((m) => m.id)),
  ];
  return {
    ...(config.provider ? { provider: config.provider } : {}),
    policy: {
      ...(profile && !minimalWithPlugins ? { profile } : {}),
      ...(minimalWithPlugins && profile
        ? { group: { allow: [...profileTools(profile), ...namedTools] } }
        : {}),
      ...(config.allow || config.deny
        ? {
            global: {
              ...(config.allow ? { allow: config.allow } : {}),
              ...(config.deny ? { deny: config.deny } : {}),
            },
          }
        : {}),
    },
    senderIsOwner: config.owner,
  };
}
