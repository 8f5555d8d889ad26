import { defineResources, type PluginResources } from "@clawtools/core/resources";
import { redPixelPng } from "./media.js";

/** What `test://static-text` holds (the suite's resources-read-text). */
export const STATIC_TEXT = "This is the content of the static text resource.";

/**
 * The fixture resources the official suite's `resources-*` scenarios read, list and subscribe
 * to, answering as its reference server does: a text and a binary resource, a watched one, and
 * the template `test://template/{id}/data`.
 */
export function conformanceResources(): PluginResources {
  return defineResources({
    resources: [
      {
        uri: "test://static-text",
        name: "static-text",
        description: "A static text resource for testing",
        mimeType: "text/plain",
        read: () => STATIC_TEXT,
      },
      {
        uri: "test://static-binary",
        name: "static-binary",
        description: "A static binary resource (a 1x1 red PNG) for testing",
        mimeType: "image/png",
        read: () => redPixelPng(),
      },
      {
        uri: "test://watched-resource",
        name: "watched-resource",
        description: "A resource a client subscribes to",
        mimeType: "text/plain",
        read: () => "Watched resource content",
      },
    ],
    templates: [
      {
        uriTemplate: "test://template/{id}/data",
        name: "template-data",
        description: "Data for an id, with the id substituted",
        mimeType: "application/json",
        read: (_uri, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        complete: { id: (value) => ["1", "2", "3"].filter((id) => id.startsWith(value)) },
      },
    ],
  });
}
