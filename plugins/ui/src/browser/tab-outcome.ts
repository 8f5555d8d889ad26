import type { ActionResult, PageLoad } from "../driver/types.js";
import type { Guarded } from "./dialogs.js";
import type { Tab } from "./tab.js";

/** A navigation's outcome as plain data (a dialog answer later reports it as JSON). */
export const loaded = (tab: Tab, navigation: Promise<unknown>): Promise<PageLoad> =>
  navigation.then(() => ({ ok: true, targetId: tab.targetId, url: tab.page.url() }));

/** An action's outcome with the tab it ran in and where that tab is now. */
export const result = <T>(tab: Tab, outcome: Guarded<T>): ActionResult<T> => ({
  ...outcome,
  targetId: tab.targetId,
  url: tab.page.url(),
});
