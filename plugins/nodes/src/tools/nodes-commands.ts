import type { Action } from "./nodes-schema.js";
// Which node commands the tool routes where: media commands, shell commands, plain reads.

export type Params = Record<string, unknown>;

/** Commands that return images or recordings: never through raw invoke (base64 would flood the context). */
export const MEDIA_COMMANDS: Record<string, string> = {
  "camera.snap": "camera_snap",
  "camera.clip": "camera_clip",
  "photos.latest": "photos_latest",
  "screen.record": "screen_record",
  "screen.snapshot": "screen_snapshot",
};
export const SHELL_COMMANDS = new Set(["system.run", "system.run.prepare"]);

export const READS: Partial<Record<Action, string>> = {
  camera_list: "camera.list",
  notifications_list: "notifications.list",
  device_status: "device.status",
  device_info: "device.info",
  device_permissions: "device.permissions",
  device_health: "device.health",
};
