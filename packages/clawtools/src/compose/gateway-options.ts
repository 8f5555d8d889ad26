import { BundleConfigError } from "./errors.js";

/** `--gateway`: a ws:// or wss:// URL of an OpenClaw Gateway, checked before anything starts. */
export function checkGatewayUrl(raw: string, flag = "--gateway"): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BundleConfigError(`${flag} needs a ws://HOST:PORT URL of an OpenClaw Gateway, got "${raw}"`);
  }
  if (url.protocol !== "ws:" && url.protocol !== "wss:")
    throw new BundleConfigError(`${flag} needs a ws:// or wss:// URL, got "${raw}"`);
  if (url.username || url.password)
    throw new BundleConfigError(
      `${flag}: put the token in --gateway-token or OPENCLAW_GATEWAY_TOKEN, not in the URL`,
    );
  return raw;
}
