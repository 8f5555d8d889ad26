import type { SectionId } from "@clawtools/core/catalog";
import type { SectionManifest } from "../manifest.js";
import agents from "./agents.json" with { type: "json" };
import automation from "./automation.json" with { type: "json" };
import fs from "./fs.json" with { type: "json" };
import memory from "./memory.json" with { type: "json" };
import messaging from "./messaging.json" with { type: "json" };
import nodes from "./nodes.json" with { type: "json" };
import runtime from "./runtime.json" with { type: "json" };
import sessions from "./sessions.json" with { type: "json" };
import ui from "./ui.json" with { type: "json" };

/**
 * The sections whose tools can be listed without importing them (generated: pnpm --filter
 * clawtools manifests). web and media are left out: which tools they offer depends on the
 * environment (search keys, speech engines installed), so they are imported to be listed.
 */
export const SECTION_MANIFESTS: Readonly<Partial<Record<SectionId, SectionManifest>>> = {
  agents,
  automation,
  fs,
  memory,
  messaging,
  nodes,
  runtime,
  sessions,
  ui,
} as unknown as Record<SectionId, SectionManifest>;

/** The sections that get a manifest (the script writes one file each). */
export const MANIFEST_SECTIONS: readonly SectionId[] = [
  "agents",
  "automation",
  "fs",
  "memory",
  "messaging",
  "nodes",
  "runtime",
  "sessions",
  "ui",
];

/**
 * Sections whose tools start state when the toolset is created (automation: the cron scheduler,
 * so due jobs fire without a call; sessions: its service reaps runs a crashed process left). An
 * app serving them lazily calls start() once it is serving.
 */
export const SECTIONS_WITH_STATE: readonly SectionId[] = ["automation", "sessions"];
